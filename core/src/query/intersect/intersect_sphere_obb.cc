// Sphere-box overlap in the box frame (Ericson 5.2.5).
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectSphereObb(const Sphere& a, const Obb& b) {
  const Vec3 c = ToBoxFrame(b, a.center);
  const Vec3 d = Clamp(c, -b.half_extents, b.half_extents) - c;
  return LengthSquared(d) <= a.radius * a.radius;
}

}  // namespace collide::internal
