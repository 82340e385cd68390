// A sphere swept straight while the bodies move between two frames: the
// projectile's sub-step against the parts (collide/projectile.h).
#ifndef COLLIDE_CORE_SRC_WORLD_MOVING_CAST_H_
#define COLLIDE_CORE_SRC_WORLD_MOVING_CAST_H_

#include <span>
#include <vector>

#include "world/scene.h"

namespace collide::internal {

struct MovingHit {
  bool hit = false;
  double t = 0.0;  // fraction of the sub-step at the first contact.
  Vec3 point;      // world frame, at t.
  Vec3 normal;     // unit, from the sphere towards the part, world frame.
  HitTarget target;
};

// The bodies of s0 passing `filter` whose bounds over the interval to s1
// (the broadphase tree's) overlap `box`: indices into s0's bodies.
void MovingCandidates(const Scene& scene, const Aabb& box, const QueryFilter& filter,
                      std::vector<std::uint32_t>& out);

// The most pieces a turning body's sub-step is cut into.
inline constexpr int kMaxTurnPieces = 64;

// The first contact of a sphere of `radius` whose centre moves straight from
// c0 to c1 while the `candidates` of `scene` (s0, s1 and alpha at the start)
// move on to their poses at `alpha1`. Each body is culled by its origin's
// straight path and the radius holding its parts; each part sees the
// sphere's path in its own frame, from its start in the part's frame at the
// piece's start to its end in the part's frame at the piece's end: one exact
// ShapeCast of that relative motion. A turning body is cut into pieces
// (at most kMaxTurnPieces) whose relative chords stay within `tolerance` of
// the relative arc (moving_cast.cc). Ties by TargetLess.
MovingHit CastAgainstMovingBodies(const Scene& scene, double alpha1, const Vec3& c0, const Vec3& c1,
                                  double radius, double tolerance, std::span<const std::uint32_t> candidates);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_MOVING_CAST_H_
