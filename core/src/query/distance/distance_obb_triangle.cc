// Triangle-box distance in the box's frame; the triangle is shape A there, so
// the result is flipped.
#include "query/box/closest_point_box.h"
#include "query/box/closest_triangle_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceObbTriangle(const Obb& a, const Triangle& b) {
  const TriangleBox f{
      {ToBoxFrame(a, b.a), ToBoxFrame(a, b.b), ToBoxFrame(a, b.c)}, -a.half_extents, a.half_extents};
  return ToWorld(a, DistanceTriangleBoxFrame(f)).Flipped();
}

}  // namespace collide::internal
