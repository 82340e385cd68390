// Exact segment-box closest points in the box frame.
#include "query/box/closest_point_box.h"
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceSegmentObb(const Segment& a, const Obb& b) {
  return ToWorld(b, DistanceCapsuleBoxFrame(ToBoxFrame(b, a.a), ToBoxFrame(b, a.b), 0.0, -b.half_extents,
                                            b.half_extents));
}

}  // namespace collide::internal
