// Segment-box signed contact: closest points apart, six-axis SAT depth
// overlapping.
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactSegmentAabb(const Segment& a, const Aabb& b) {
  return ContactCapsuleBoxFrame(a.a, a.b, 0.0, b.min, b.max, kIdentity);
}

}  // namespace collide::internal
