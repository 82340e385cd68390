#include "query/closest/closest_triangle.h"

#include "query/closest/closest.h"

namespace collide::internal {
// The fallback of ClosestPointOnTriangle's edge regions: rounding can make
// an edge region's denominator (|edge|^2 in exact arithmetic, a difference
// of two dot products in floating point) zero or negative, as on a needle
// triangle 1e-33 wide and 1e12 long, where p - a loses the width.
Vec3 ClosestPointOnEdges(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 o{};
  Vec3 best = ClosestPointOnSegment(o, a, b).point;
  double best_d2 = LengthSquared(best);
  for (const Vec3& q : {ClosestPointOnSegment(o, b, c).point, ClosestPointOnSegment(o, c, a).point}) {
    const double d2 = LengthSquared(q);
    if (d2 < best_d2) best = q, best_d2 = d2;
  }
  return best;
}

}  // namespace collide::internal
