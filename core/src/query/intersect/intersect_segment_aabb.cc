// Segment-box overlap by the slab method over t in [0, 1].
#include "query/kernels_box.h"
#include "query/raycast/slab.h"

namespace collide::internal {

bool IntersectSegmentAabb(const Segment& a, const Aabb& b) {
  return ClipLineToBox(a.a, a.b - a.a, b.min, b.max, 0.0, 1.0).hit;
}

}  // namespace collide::internal
