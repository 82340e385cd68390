// Capsule-box overlap: exact segment-box squared distance against r^2.
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectCapsuleAabb(const Capsule& a, const Aabb& b) {
  return ClosestSegmentBoxFrame(a.a, a.b, b.min, b.max).distance_squared <= a.radius * a.radius;
}

}  // namespace collide::internal
