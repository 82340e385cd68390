// Sphere-box overlap: squared clamp distance of the centre against r^2
// (Arvo 1990; Ericson 5.2.5).
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectSphereAabb(const Sphere& a, const Aabb& b) {
  const Vec3 d = Clamp(a.center, b.min, b.max) - a.center;
  return LengthSquared(d) <= a.radius * a.radius;
}

}  // namespace collide::internal
