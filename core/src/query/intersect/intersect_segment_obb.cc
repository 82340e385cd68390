// Segment-box overlap by the slab method in the box frame.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"
#include "query/raycast/slab.h"

namespace collide::internal {

bool IntersectSegmentObb(const Segment& a, const Obb& b) {
  const Vec3 p = ToBoxFrame(b, a.a);
  const Vec3 q = ToBoxFrame(b, a.b);
  return ClipLineToBox(p, q - p, -b.half_extents, b.half_extents, 0.0, 1.0).hit;
}

}  // namespace collide::internal
