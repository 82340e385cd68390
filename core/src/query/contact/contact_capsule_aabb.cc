// Capsule-box signed contact: the segment's, moved out by the radius.
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactCapsuleAabb(const Capsule& a, const Aabb& b) {
  return ContactCapsuleBoxFrame(a.a, a.b, a.radius, b.min, b.max, kIdentity);
}

}  // namespace collide::internal
