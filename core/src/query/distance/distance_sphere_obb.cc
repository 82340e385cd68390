// Sphere-box distance in the box frame.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceSphereObb(const Sphere& a, const Obb& b) {
  return ToWorld(b, DistanceBallBoxFrame(ToBoxFrame(b, a.center), a.radius, -b.half_extents, b.half_extents));
}

}  // namespace collide::internal
