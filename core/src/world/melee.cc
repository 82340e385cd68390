// Melee verdicts (collide/melee.h): the shot policy's checks, then every
// part the swing's volume reaches at the time used, each with its line from
// the attacker's eye; the claim decides the code as a shot's does.
#include "collide/melee.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "world/melee_reach.h"
#include "world/scene_query.h"
#include "world/verdict_policy.h"

namespace collide {
namespace {

using internal::Scene;

void ValidateVec(const Vec3& v, const char* field, bool nonzero, std::vector<Violation>& out) {
  if (!IsValidNumber(v)) {
    out.push_back({field, "not a valid number"});
  } else if (nonzero && v == Vec3{}) {
    out.push_back({field, "must be non-zero"});
  }
}

std::vector<Violation> RequestProblems(const MeleeRequest& m) {
  std::vector<Violation> out;
  internal::ValidateTime(m.at, out);
  if (const auto* arc = std::get_if<MeleeArc>(&m.reach)) {
    ValidateVec(arc->direction, "arc.direction", true, out);
    ValidateVec(arc->up, "arc.up", true, out);
    if (out.empty() && Length(Cross(NormalizedOr(arc->direction, {}), NormalizedOr(arc->up, {}))) < 1e-6) {
      out.push_back({"arc.direction", "must not be parallel to arc.up"});
    }
    if (!IsValidNumber(arc->radius) || !(arc->radius > 0.0)) out.push_back({"arc.radius", "must be > 0"});
    if (!(arc->angle > 0.0 && arc->angle <= 2.0 * std::numbers::pi)) {
      out.push_back({"arc.angle", "must be in (0, 2 pi] radians"});
    }
  } else {
    const auto& sweep = std::get<MeleeSweep>(m.reach);
    std::vector<Violation> shape;
    Validate(sweep.from, shape);
    for (Violation& v : shape) out.push_back({"sweep.from." + v.field, std::move(v.description)});
    shape.clear();
    Validate(sweep.to, shape);
    for (Violation& v : shape) out.push_back({"sweep.to." + v.field, std::move(v.description)});
    if (sweep.from.radius != sweep.to.radius)
      out.push_back({"sweep.to.radius", "must equal sweep.from.radius"});
  }
  if (!IsValidNumber(m.tolerance) || !(m.tolerance >= 0.0)) {
    out.push_back({"tolerance", "must be a valid number >= 0"});
  }
  internal::ValidateClaim(m.claim, m.attacker, m.ignored_bodies, out);
  return out;
}

// A reached part and what blocks its line from the eye.
struct Reached {
  MeleeHit hit;
  std::optional<WorldRayHit> blocker;
};

// The first static or part of a body other than `target` (and the ignored)
// on the segment from the eye to `point`, stopping short of it.
std::optional<WorldRayHit> LineBlocker(const Scene& scene, const Vec3& eye, const Vec3& point,
                                       std::int64_t target, QueryFilter filter) {
  const double length = Length(point - eye);
  if (!(length > 1e-9)) return std::nullopt;
  filter.ignored_bodies.push_back(target);
  std::vector<WorldRayHit> hits;
  internal::CastRay(scene, Ray{eye, point - eye, length * (1.0 - 1e-9)}, filter, RayMode::kClosest, 1, {},
                    hits);
  if (hits.empty()) return std::nullopt;
  return hits.front();
}

MeleeVerdict Judge(const World& world, const MeleeRequest& m) {
  MeleeVerdict v;
  v.problems = RequestProblems(m);
  if (!v.problems.empty()) {
    v.code = ShotCode::kInvalid;
    return v;
  }
  v.time = world.Resolve(m.at);
  const internal::Rewound rewound = internal::RewindWithinPolicy(world, m.at);
  if (rewound.outcome != internal::Rewound::Outcome::kOk) {
    v.code = rewound.outcome == internal::Rewound::Outcome::kInTheFuture ? ShotCode::kInTheFuture
                                                                         : ShotCode::kRewindTooOld;
    return v;
  }
  const Scene& scene = rewound.scene;
  v.time = scene.time;
  const std::size_t attacker = scene.s0 != nullptr ? scene.s0->IndexOf(m.attacker) : 0;
  if (attacker == scene.body_count()) {
    v.code = ShotCode::kUnknownShooter;
    return v;
  }
  const Pose pose = scene.BodyPose(attacker);
  v.eye = Apply(pose, scene.body(attacker).eye);
  std::optional<internal::ClaimedPart> claimed;
  if (m.claim) {
    claimed = internal::FindClaim(scene, *m.claim);
    if (!claimed) {
      v.code = ShotCode::kUnknownTarget;
      return v;
    }
    if ((scene.body(claimed->body).category & m.mask) == 0) {
      v.code = ShotCode::kInvalid;
      v.problems.push_back({"claim.body", "is outside the swing's category mask"});
      return v;
    }
  }
  const internal::MeleeVolume volume =
      std::holds_alternative<MeleeArc>(m.reach)
          ? internal::MeleeVolume::Arc(v.eye, std::get<MeleeArc>(m.reach))
          : internal::MeleeVolume::Sweep(pose, std::get<MeleeSweep>(m.reach));
  const QueryFilter filter = internal::VerdictFilter(world, m.mask, m.ignored_bodies, m.attacker);
  const std::int64_t claimed_body = m.claim ? m.claim->body : 0;
  const double grow = m.claim ? m.tolerance : 0.0;
  const Vec3 pad{grow, grow, grow};
  std::vector<Reached> reached;
  std::vector<internal::PlacedPart> parts;
  scene.s0->tree.Overlap({volume.bounds().min - pad, volume.bounds().max + pad}, [&](std::uint32_t i) {
    const internal::BodyState& b = scene.body(i);
    if (!internal::Passes(filter, b.category) || internal::Ignored(filter, b.id)) return;
    scene.PlaceParts(i, parts);
    for (const internal::PlacedPart& p : parts) {
      const double limit = m.claim && b.id == claimed_body ? grow : 0.0;
      const PairResult r = volume.Reach(p.shape, limit);
      if (!(r.distance <= limit)) continue;
      Reached x{{{HitTarget::Kind::kBody, b.id, 0, p.id}, r.point_b, Length(r.point_b - v.eye)},
                std::nullopt};
      x.blocker = LineBlocker(scene, v.eye, r.point_b, b.id, filter);
      reached.push_back(std::move(x));
    }
  });
  std::sort(reached.begin(), reached.end(), [](const Reached& a, const Reached& b) {
    return a.hit.distance != b.hit.distance ? a.hit.distance < b.hit.distance
                                            : TargetLess(a.hit.target, b.hit.target);
  });
  for (const Reached& r : reached) {
    if (!r.blocker) v.hits.push_back(r.hit);
  }
  // What blocks: the claimed part's line, else the nearest reached part's
  // (of the claimed body with a claim).
  const auto on_claimed = [&](const Reached& r) { return !m.claim || r.hit.target.id == claimed_body; };
  const Reached* first_blocked = nullptr;
  bool clear_claimed_part = false, clear_other_part = false;
  for (const Reached& r : reached) {
    if (!on_claimed(r)) continue;
    const bool is_part = m.claim && r.hit.target.part == m.claim->part;
    if (!r.blocker) {
      (is_part || !m.claim ? clear_claimed_part : clear_other_part) = true;
    } else if (first_blocked == nullptr || (is_part && first_blocked->hit.target.part != m.claim->part)) {
      first_blocked = &r;
    }
  }
  if (clear_claimed_part) {
    v.code = ShotCode::kConfirmed;
  } else if (clear_other_part) {
    v.code = ShotCode::kHitOtherPart;
  } else if (first_blocked != nullptr) {
    v.blocker = first_blocked->blocker;
    v.code = v.blocker->target.kind == HitTarget::Kind::kStatic || !m.claim ? ShotCode::kBlocked
                                                                            : ShotCode::kHitOtherBody;
  } else {
    v.code = ShotCode::kMissed;
    if (claimed) {
      internal::PosedBody posed;
      scene.Posed(claimed->body, posed);
      const internal::PartSet& set = *scene.body(claimed->body).parts;
      const Shape part =
          PlaceShape(set.shapes[claimed->part], Compose(posed.pose, (*posed.locals)[claimed->part]));
      v.claim_miss_distance = volume.Reach(part).distance;
    }
  }
  return v;
}

}  // namespace

std::vector<MeleeVerdict> World::ValidateMelee(std::span<const MeleeRequest> swings) const {
  std::vector<MeleeVerdict> out;
  out.reserve(swings.size());
  for (const MeleeRequest& m : swings) out.push_back(Judge(*this, m));
  return out;
}

}  // namespace collide
