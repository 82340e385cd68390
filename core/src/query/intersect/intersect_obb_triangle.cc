// Triangle-box overlap by the 13 separating axes in the box's frame.
#include "query/box/closest_point_box.h"
#include "query/box/closest_triangle_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectObbTriangle(const Obb& a, const Triangle& b) {
  const TriangleBox f{
      {ToBoxFrame(a, b.a), ToBoxFrame(a, b.b), ToBoxFrame(a, b.c)}, -a.half_extents, a.half_extents};
  return IntersectTriangleBoxFrame(f);
}

}  // namespace collide::internal
