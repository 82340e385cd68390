// Shot explanations: computed after the verdict from the times it used, with
// the functions the judge uses (the posed bodies are Bodies' answers), so a
// verdict is the same with or without one.
#include "world/shot_explain.h"

#include <algorithm>

#include "collide/query.h"
#include "shapes/shape_bounds.h"
#include "world/scene.h"

namespace collide::internal {
namespace {

// The codes given after the ray cast.
bool RayWasCast(ShotCode code) {
  return code == ShotCode::kConfirmed || code == ShotCode::kHitOtherPart || code == ShotCode::kHitOtherBody ||
         code == ShotCode::kBlocked || code == ShotCode::kMissed;
}

}  // namespace

double ClaimMissDistance(const ShotRequest& shot, const Shape& part) {
  const Aabb b = BoundsOf(part);
  const Vec3 unit = NormalizedOr(shot.direction, Vec3{1, 0, 0});
  const double reach = Length((b.min + b.max) * 0.5 - shot.origin) + Length(b.max - b.min) + 1.0;
  const double length = std::min(shot.max_range, reach);
  return Distance(Segment{shot.origin, shot.origin + unit * length}, part).distance;
}

ShotExplanation ExplainShot(const World& world, const ShotRequest& shot, const ShotVerdict& v) {
  ShotExplanation e;
  e.command_at = world.Resolve(shot.command_at).used;
  e.shooter = PoseBodyAt(world, shot.shooter, e.command_at);
  if (RayWasCast(v.code))
    e.ray = Ray{shot.origin, NormalizedOr(shot.direction, Vec3{1, 0, 0}), shot.max_range};
  e.tolerance = shot.tolerance;
  if (!shot.claim) return e;
  e.claimed_rewound = PoseBodyAt(world, shot.claim->body, v.time.used);
  e.claimed_latest = PoseBodyAt(world, shot.claim->body, std::nullopt);
  if (!e.claimed_rewound) return e;
  bool first = true;
  for (const PosedPart& part : e.claimed_rewound->parts) {
    const double d = ClaimMissDistance(shot, part.shape);
    if (first || d < e.nearest_claimed_distance) {
      e.nearest_claimed_part = part.id;
      e.nearest_claimed_distance = d;
      first = false;
    }
  }
  return e;
}

}  // namespace collide::internal
