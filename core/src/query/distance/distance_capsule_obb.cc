// Capsule-box distance in the box frame.
#include "query/box/closest_point_box.h"
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceCapsuleObb(const Capsule& a, const Obb& b) {
  return ToWorld(b, DistanceCapsuleBoxFrame(ToBoxFrame(b, a.a), ToBoxFrame(b, a.b), a.radius, -b.half_extents,
                                            b.half_extents));
}

}  // namespace collide::internal
