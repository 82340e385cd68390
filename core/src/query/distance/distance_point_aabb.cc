// Point-box distance by per-axis clamping (Ericson 5.1.3).
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistancePointAabb(const Point& a, const Aabb& b) {
  return DistanceBallBoxFrame(a.position, 0.0, b.min, b.max);
}

}  // namespace collide::internal
