// Capsule-box distance: exact segment-box distance less the radius.
#include "query/box/closest_segment_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceCapsuleAabb(const Capsule& a, const Aabb& b) {
  return DistanceCapsuleBoxFrame(a.a, a.b, a.radius, b.min, b.max);
}

}  // namespace collide::internal
