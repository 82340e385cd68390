// Triangle-box distance in the box's frame (an Aabb's is the world's, its
// bounds used as given); the triangle is shape A there, so the result is
// flipped.
#include "query/box/closest_triangle_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceAabbTriangle(const Aabb& a, const Triangle& b) {
  return DistanceTriangleBoxFrame({{b.a, b.b, b.c}, a.min, a.max}).Flipped();
}

}  // namespace collide::internal
