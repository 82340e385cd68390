#include "query/closest/closest_triangle.h"

#include "query/closest/closest.h"

namespace collide::internal {
namespace {

// The nearest of the three edges' closest points: the answer when rounding
// has made an edge region's denominator (|edge|^2 in exact arithmetic, a
// difference of two dot products in floating point) zero or negative, as on
// a needle triangle 1e-33 wide and 1e12 long, where p - a loses the width.
Vec3 ClosestPointOnEdges(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 best = ClosestPointOnSegment(p, a, b).point;
  double best_d2 = LengthSquared(best - p);
  for (const Vec3& q : {ClosestPointOnSegment(p, b, c).point, ClosestPointOnSegment(p, c, a).point}) {
    const double d2 = LengthSquared(q - p);
    if (d2 < best_d2) best = q, best_d2 = d2;
  }
  return best;
}

}  // namespace

Vec3 ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  // Ericson 5.1.5: classify p against the vertex, edge and face regions with
  // dot products relative to the vertices, cheapest regions first.
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Vec3 ap = p - a;
  const double d1 = Dot(ab, ap);
  const double d2 = Dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = Dot(ab, bp);
  const double d4 = Dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    if (!(d1 - d3 > 0.0)) return ClosestPointOnEdges(p, a, b, c);
    return a + ab * (d1 / (d1 - d3));
  }
  const Vec3 cp = p - c;
  const double d5 = Dot(ab, cp);
  const double d6 = Dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    if (!(d2 - d6 > 0.0)) return ClosestPointOnEdges(p, a, b, c);
    return a + ac * (d2 / (d2 - d6));
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    if (!((d4 - d3) + (d5 - d6) > 0.0)) return ClosestPointOnEdges(p, a, b, c);
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  // Face region: project on the plane, which keeps the distance exact to
  // round-off of |dot(ap, n)| / |n| where the barycentric formula loses
  // digits on thin triangles.
  const Vec3 n = Cross(ab, ac);
  return p - n * (Dot(ap, n) / Dot(n, n));
}

}  // namespace collide::internal
