// Shot validation (docs/worlds.md, "Verdicts"): policy checks in a fixed
// order (request, time, shooter, origin, claimed target), then one closest
// ray cast at the time used, ignoring the shooter, with the claimed body's
// parts grown by a ball of radius `tolerance`. A claim whose body the ray
// does not meet at all is MISSED; otherwise the first hit decides.
#include <algorithm>

#include "collide/query.h"
#include "shapes/shape_bounds.h"
#include "world/scene_query.h"

namespace collide {
namespace {

// Ticks from `at` back to the latest frame (negative: in the future).
double TicksBeforeLatest(std::int64_t latest, const Time& at) {
  return static_cast<double>(latest - at.tick) - at.fraction;
}

// Distance from the shot's segment to the claimed part: the segment runs from
// the origin far enough to pass the part (or to max_range).
double ClaimMissDistance(const ShotRequest& shot, const Shape& part) {
  const Aabb b = internal::BoundsOf(part);
  const Vec3 unit = NormalizedOr(shot.direction, Vec3{1, 0, 0});
  const double reach = Length((b.min + b.max) * 0.5 - shot.origin) + Length(b.max - b.min) + 1.0;
  const double length = std::min(shot.max_range, reach);
  return Distance(Segment{shot.origin, shot.origin + unit * length}, part).distance;
}

ShotVerdict Judge(const World& world, const ShotRequest& shot) {
  ShotVerdict v;
  Validate(Ray{shot.origin, shot.direction, shot.max_range}, v.problems);
  if (!(shot.tolerance >= 0.0) || !IsValidNumber(shot.tolerance)) {
    v.problems.push_back({"tolerance", "must be a valid number >= 0"});
  }
  internal::ValidateTime(shot.at, v.problems);
  if (shot.claim && shot.claim->body == shot.shooter) {
    v.problems.push_back({"claim.body", "is the shooter's own body, which a shot never hits"});
  }
  if (!v.problems.empty()) {
    v.code = ShotCode::kInvalid;
    return v;
  }
  const std::optional<std::int64_t> latest = world.latest_tick();
  if (latest && shot.at) {
    const double back = TicksBeforeLatest(*latest, *shot.at);
    v.time = world.Resolve(shot.at);
    if (back < 0.0) {
      v.code = ShotCode::kInTheFuture;
      return v;
    }
    if (back > static_cast<double>(world.settings().max_rewind_ticks)) {
      v.code = ShotCode::kRewindTooOld;
      return v;
    }
  }
  const internal::Scene scene = internal::SceneAccess::At(world, shot.at);
  v.time = scene.time;
  const std::size_t shooter = scene.s0 != nullptr ? scene.s0->IndexOf(shot.shooter) : 0;
  if (shooter == scene.body_count()) {
    v.code = ShotCode::kUnknownShooter;
    return v;
  }
  v.origin_offset = Length(shot.origin - scene.BodyPose(shooter).position);
  if (v.origin_offset > world.settings().max_origin_offset) {
    v.code = ShotCode::kOriginImplausible;
    return v;
  }
  // The claimed body and the index of the claimed part in its part set.
  std::size_t target = scene.body_count(), part = 0;
  if (shot.claim) {
    target = scene.s0->IndexOf(shot.claim->body);
    if (target < scene.body_count()) {
      const auto& ids = scene.body(target).parts->ids;
      part = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), shot.claim->part) - ids.begin());
    }
    if (target == scene.body_count() || part == scene.body(target).parts->ids.size()) {
      v.code = ShotCode::kUnknownTarget;
      return v;
    }
  }
  QueryFilter filter;
  filter.ignored_bodies.push_back(shot.shooter);
  const Ray ray{shot.origin, shot.direction, shot.max_range};
  const double grow = shot.claim ? shot.tolerance : 0.0;
  const internal::Inflation inflation{shot.claim ? shot.claim->body : 0, grow};
  std::vector<WorldRayHit> hits;
  internal::CastRay(scene, ray, filter, RayMode::kClosest, 1, inflation, hits);
  if (!hits.empty()) v.first_hit = hits.front();
  const HitTarget* first = hits.empty() ? nullptr : &hits.front().target;
  const bool first_on_claimed = first != nullptr && shot.claim && first->kind == HitTarget::Kind::kBody &&
                                first->id == shot.claim->body;
  if (first == nullptr) {
    v.code = ShotCode::kMissed;
  } else if (shot.claim && !first_on_claimed && !internal::RayMeetsBody(scene, target, ray, grow)) {
    v.code = ShotCode::kMissed;  // The claimed body is nowhere on the ray, whatever else is.
  } else if (first->kind == HitTarget::Kind::kStatic) {
    v.code = ShotCode::kBlocked;
  } else if (!shot.claim || (first_on_claimed && first->part == shot.claim->part)) {
    v.code = ShotCode::kConfirmed;
  } else {
    v.code = first_on_claimed ? ShotCode::kHitOtherPart : ShotCode::kHitOtherBody;
  }
  if (shot.claim && v.code != ShotCode::kConfirmed) {
    internal::PosedBody posed;
    scene.Posed(target, posed);
    const Pose local = Compose(posed.pose, (*posed.locals)[part]);
    v.claim_miss_distance =
        ClaimMissDistance(shot, PlaceShape(scene.body(target).parts->shapes[part], local));
  }
  return v;
}

}  // namespace

std::vector<ShotVerdict> World::ValidateShots(std::span<const ShotRequest> shots) const {
  std::vector<ShotVerdict> out;
  out.reserve(shots.size());
  for (const ShotRequest& shot : shots) out.push_back(Judge(*this, shot));
  return out;
}

}  // namespace collide
