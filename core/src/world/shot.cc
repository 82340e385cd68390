// Shot validation (docs/worlds.md, "Verdicts"): policy checks in a fixed
// order (request, time, view time, rewind window, shooter and origin at the
// command's time, claimed target), then one closest ray cast at the time
// used, through the shot's filter and ignoring the shooter, with the claimed
// body's parts grown by a ball of radius `tolerance`. A claim whose body the
// ray does not meet at all is MISSED; otherwise the first hit decides.
#include <algorithm>
#include <cmath>
#include <memory>

#include "collide/query.h"
#include "world/scene_query.h"
#include "world/shot_explain.h"
#include "world/verdict_policy.h"

namespace collide {
namespace {

// a - b in ticks (ticks are bounded so that the difference is an int64).
double TicksBetween(const Time& a, const Time& b) {
  return static_cast<double>(a.tick - b.tick) + (a.fraction - b.fraction);
}

bool Contains(const std::vector<std::int64_t>& ids, std::int64_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::vector<Violation> RequestProblems(const ShotRequest& shot) {
  std::vector<Violation> out;
  Validate(Ray{shot.origin, shot.direction, shot.max_range}, out);
  if (!(shot.tolerance >= 0.0) || !IsValidNumber(shot.tolerance)) {
    out.push_back({"tolerance", "must be a valid number >= 0"});
  }
  internal::ValidateTime(shot.at, out);
  internal::ValidateNamedTime(shot.command_at, "command_at", out);
  internal::ValidateNamedTime(shot.expected_at, "expected_at", out);
  if (!(shot.max_skew_ticks >= 0.0) || !IsValidNumber(shot.max_skew_ticks)) {
    out.push_back({"max_skew_ticks", "must be a valid number >= 0"});
  }
  if (shot.claim && shot.claim->body == shot.shooter) {
    out.push_back({"claim.body", "is the shooter's own body, which a shot never hits"});
  } else if (shot.claim && Contains(shot.ignored_bodies, shot.claim->body)) {
    out.push_back({"claim.body", "is in the shot's ignored bodies"});
  }
  return out;
}

// Whether the shooter or `claimed` teleported in a frame after the scene's
// time (a rewind across the jump).
bool RewoundAcrossTeleport(const World& world, const internal::Scene& scene, std::int64_t shooter,
                           std::optional<std::int64_t> claimed) {
  if (scene.s1 == nullptr) return false;
  // The frames from the latest back to s1: only those after the time used
  // (a recent rewind visits few).
  const std::int64_t before = scene.s1->tick - 1;
  return claimed ? internal::TeleportedAfter(world, {shooter, *claimed}, before)
                 : internal::TeleportedAfter(world, {shooter}, before);
}

ShotVerdict Judge(const World& world, const ShotRequest& shot) {
  ShotVerdict v;
  v.problems = RequestProblems(shot);
  if (!v.problems.empty()) {
    v.code = ShotCode::kInvalid;
    return v;
  }
  v.time = world.Resolve(shot.at);
  // The rewind window, with VIEW_TIME_IMPLAUSIBLE decided between its two
  // rejections (world.proto's order).
  const internal::Rewound rewound = internal::RewindWithinPolicy(world, shot.at);
  if (rewound.outcome == internal::Rewound::Outcome::kInTheFuture) {
    v.code = ShotCode::kInTheFuture;
    return v;
  }
  if (shot.expected_at) {
    const Time seen = shot.at.value_or(v.time.used);
    if (std::fabs(TicksBetween(seen, *shot.expected_at)) > shot.max_skew_ticks) {
      v.code = ShotCode::kViewTimeImplausible;
      return v;
    }
  }
  if (rewound.outcome == internal::Rewound::Outcome::kTooOld) {
    v.code = ShotCode::kRewindTooOld;
    return v;
  }
  const internal::Scene& scene = rewound.scene;
  v.time = scene.time;
  if (!internal::OriginPlausible(world, shot, v)) return v;
  // The claimed body and the index of the claimed part in its part set.
  std::size_t target = scene.body_count(), part = 0;
  if (shot.claim) {
    const std::optional<internal::ClaimedPart> claimed = internal::FindClaim(scene, *shot.claim);
    if (!claimed) {
      v.code = ShotCode::kUnknownTarget;
      return v;
    }
    target = claimed->body, part = claimed->part;
    if ((scene.body(target).category & shot.mask) == 0) {
      v.code = ShotCode::kInvalid;
      v.problems.push_back({"claim.body", "is outside the shot's category mask"});
      return v;
    }
  }
  v.rewound_across_teleport = RewoundAcrossTeleport(
      world, scene, shot.shooter, shot.claim ? std::optional(shot.claim->body) : std::nullopt);
  const QueryFilter filter = internal::VerdictFilter(world, shot.mask, shot.ignored_bodies, shot.shooter);
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
        internal::ClaimMissDistance(shot, PlaceShape(scene.body(target).parts->shapes[part], local));
  }
  return v;
}

}  // namespace

std::vector<ShotVerdict> World::ValidateShots(std::span<const ShotRequest> shots) const {
  std::vector<ShotVerdict> out;
  out.reserve(shots.size());
  for (const ShotRequest& shot : shots) {
    ShotVerdict& v = out.emplace_back(Judge(*this, shot));
    if (shot.explain && v.code != ShotCode::kInvalid)
      v.explanation = std::make_shared<const ShotExplanation>(internal::ExplainShot(*this, shot, v));
  }
  return out;
}

}  // namespace collide
