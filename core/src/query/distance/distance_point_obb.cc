// Point-box distance in the box frame, reusing the axis-aligned clamp.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistancePointObb(const Point& a, const Obb& b) {
  return ToWorld(b, DistanceBallBoxFrame(ToBoxFrame(b, a.position), 0.0, -b.half_extents, b.half_extents));
}

}  // namespace collide::internal
