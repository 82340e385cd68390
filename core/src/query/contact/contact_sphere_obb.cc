// Sphere-box signed contact in the box frame; ties broken on world normals.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactSphereObb(const Sphere& a, const Obb& b) {
  return ToWorld(
      b, ContactBallBoxFrame(ToBoxFrame(b, a.center), a.radius, -b.half_extents, b.half_extents, b.rotation));
}

}  // namespace collide::internal
