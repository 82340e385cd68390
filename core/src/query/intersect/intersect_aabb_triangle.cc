// Triangle-box overlap by the 13 separating axes in the box's frame (an
// Aabb's is the world's, its bounds used as given).
#include "query/box/closest_triangle_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectAabbTriangle(const Aabb& a, const Triangle& b) {
  return IntersectTriangleBoxFrame({{b.a, b.b, b.c}, a.min, a.max});
}

}  // namespace collide::internal
