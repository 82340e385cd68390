// Ground and ceiling under and over a moving shape (the movement model's
// ground test: Quake's PM_GroundTrace casts its box 0.25 units down and
// calls the plane ground when its normal z >= 0.7).
#ifndef COLLIDE_CORE_SRC_WORLD_GROUND_H_
#define COLLIDE_CORE_SRC_WORLD_GROUND_H_

#include <span>

#include "collide/world.h"
#include "world/scene.h"

namespace collide::internal {

struct Probe {
  bool hit = false;
  double distance = 0.0;  // along the probe, 0 when touching.
  Vec3 normal;            // of the surface met, pointing away from it (towards the shape).
  HitTarget target;       // what was met.
};

// The first static in `mask` that `shapes` meet moved by `translation`
// (contacts already touching count when approached: a body standing on a
// floor meets it at distance 0, a wall beside it does not stop a probe down).
Probe Cast(const Scene& scene, std::span<const Shape> shapes, const Vec3& translation, CategoryMask mask);

// Walkable ground within `probe` below `shapes`: a surface whose normal z is
// >= walkable_normal_z.
struct Ground {
  Probe probe;
  bool walkable = false;
};
Ground FindGround(const Scene& scene, std::span<const Shape> shapes, double probe, double walkable_normal_z,
                  CategoryMask mask);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_GROUND_H_
