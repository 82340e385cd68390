// Segment-box signed contact in the box frame.
#include "query/box/closest_point_box.h"
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactSegmentObb(const Segment& a, const Obb& b) {
  return ToWorld(b, ContactCapsuleBoxFrame(ToBoxFrame(b, a.a), ToBoxFrame(b, a.b), 0.0, -b.half_extents,
                                           b.half_extents, b.rotation));
}

}  // namespace collide::internal
