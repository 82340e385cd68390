// Capsule-box overlap in the box frame.
#include "query/box/closest_point_box.h"
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectCapsuleObb(const Capsule& a, const Obb& b) {
  return ClosestSegmentBoxFrame(ToBoxFrame(b, a.a), ToBoxFrame(b, a.b), -b.half_extents, b.half_extents)
             .distance_squared <= a.radius * a.radius;
}

}  // namespace collide::internal
