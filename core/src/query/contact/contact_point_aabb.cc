// Point-box signed contact: closest point apart, nearest face inside.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactPointAabb(const Point& a, const Aabb& b) {
  return ContactBallBoxFrame(a.position, 0.0, b.min, b.max, kIdentity);
}

}  // namespace collide::internal
