// Sphere-box distance: the centre's clamp distance less the radius.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceSphereAabb(const Sphere& a, const Aabb& b) {
  return DistanceBallBoxFrame(a.center, a.radius, b.min, b.max);
}

}  // namespace collide::internal
