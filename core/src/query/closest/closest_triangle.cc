#include "query/closest/closest_triangle.h"

#include "query/closest/closest.h"

namespace collide::internal {
namespace {

// The nearest of the three edges' closest points: the answer when rounding
// has made an edge region's denominator (|edge|^2 in exact arithmetic, a
// difference of two dot products in floating point) zero or negative, as on
// a needle triangle 1e-33 wide and 1e12 long, where p - a loses the width.
// Vertices relative to the query point (the origin).
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

}  // namespace

std::optional<TriangleClosestPoint> ClosestPointOnTriangle(const Vec3& p, const Vec3& vertex_a,
                                                           const Vec3& vertex_b, const Vec3& vertex_c) {
  // Relative to p, so that rounding is relative to the triangle's distance
  // rather than to its coordinates (p is the origin below).
  const Vec3 a = vertex_a - p, b = vertex_b - p, c = vertex_c - p;
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Vec3 n = Cross(ab, ac);
  // The GJK sub-algorithm's collinearity test (sin < ~1e-14).
  const double ab2 = LengthSquared(ab), ac2 = LengthSquared(ac);
  if (!(LengthSquared(n) > 1e-28 * ab2 * ac2)) return std::nullopt;
  const double size2 = ab2 + ac2;
  // Ericson 5.1.5: classify p against the vertex, edge and face regions with
  // dot products relative to the vertices, cheapest regions first.
  const Vec3 ap = -a;
  const double d1 = Dot(ab, ap);
  const double d2 = Dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return TriangleClosestPoint{a, size2};
  const Vec3 bp = -b;
  const double d3 = Dot(ab, bp);
  const double d4 = Dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return TriangleClosestPoint{b, size2};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    if (!(d1 - d3 > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{a + ab * (d1 / (d1 - d3)), size2};
  }
  const Vec3 cp = -c;
  const double d5 = Dot(ab, cp);
  const double d6 = Dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return TriangleClosestPoint{c, size2};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    if (!(d2 - d6 > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{a + ac * (d2 / (d2 - d6)), size2};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    if (!((d4 - d3) + (d5 - d6) > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))), size2};
  }
  // Face region: project on the plane, which keeps the distance exact to
  // round-off of |dot(a, n)| / |n| where the barycentric formula loses
  // digits on thin triangles.
  return TriangleClosestPoint{n * (Dot(a, n) / Dot(n, n)), size2};
}

}  // namespace collide::internal
