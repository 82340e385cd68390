// Exact segment-box closest points (convex piecewise quadratic).
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceSegmentAabb(const Segment& a, const Aabb& b) {
  return DistanceCapsuleBoxFrame(a.a, a.b, 0.0, b.min, b.max);
}

}  // namespace collide::internal
