// Closest point of a triangle to a point (a closest-point building block, see
// closest.h for the segment and line ones).
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_

#include <optional>

#include "collide/math.h"
#include "query/closest/closest.h"

namespace collide::internal {

// The point of triangle (a, b, c) closest to p, as an offset from p, with
// the triangle's size (|ab|^2 + |ac|^2: its diameter is at most
// sqrt(2 size2)), by Voronoi regions (Ericson, Real-Time Collision
// Detection 5.1.5); nullopt when the triangle is degenerate by the GJK
// sub-algorithm's collinearity test (sin of the angle at a < ~1e-14).
struct TriangleClosestPoint {
  Vec3 offset;
  double size2;
};

// The nearest of the three edges' closest points (closest_triangle.cc): the
// answer when rounding has made an edge region's denominator zero or
// negative. Vertices relative to the query point (the origin).
[[gnu::cold]] Vec3 ClosestPointOnEdges(const Vec3& a, const Vec3& b, const Vec3& c);

// ClosestPointOnTriangle for a thin triangle (sin of the angle at a below
// 1e-3), as the offset from p; nullopt when degenerate by the GJK
// sub-algorithm's collinearity test (sin < ~1e-14). Accuracy (issue 14,
// class 5): in double the plane normal n = ab x ac of a sliver is a small
// difference of products of size |ab| |ac|, so its direction is off by
// ~eps / sin and the face distance dot(a, n) / |n| by ~eps |a| / sin (3e-12
// seen at sin 1e-4); the Voronoi tests' d1 d4 - d3 d2 cancel the same way,
// and even a - p rounded in double tilts the plane by eps / sin. Here all
// in long double (64-bit significand, 2^11 times finer) from the inputs:
// the nearest point of the three edges (well-conditioned: a point on an
// edge gets 0), or the face point when p projects inside (the
// sub-triangles' areas along n all >= 0) and it is nearer.
[[gnu::cold]] std::optional<TriangleClosestPoint> ClosestPointOnThinTriangle(const Vec3& p, const Vec3& vertex_a,
                                                                            const Vec3& vertex_b,
                                                                            const Vec3& vertex_c);

// Always inline, for the ball-triangle kernel: out of line, the optional
// result goes through the stack, and with plain inline GCC calls it (it has
// two callers in ball_triangle.cc), 26 more instructions per sphere-triangle
// pair in pair_bench.
[[gnu::always_inline]] inline std::optional<TriangleClosestPoint> ClosestPointOnTriangle(
    const Vec3& p, const Vec3& vertex_a, const Vec3& vertex_b, const Vec3& vertex_c) {
  // Relative to p, so that rounding is relative to the triangle's distance
  // rather than to its coordinates (p is the origin below).
  const Vec3 a = vertex_a - p, b = vertex_b - p, c = vertex_c - p;
  const Vec3 ab = b - a;
  const Vec3 ac = c - a;
  const Vec3 n = Cross(ab, ac);
  // Thin triangles (sin of the angle at a below 1e-3, degenerate ones
  // included) take the extended-precision path: one comparison here.
  const double ab2 = LengthSquared(ab), ac2 = LengthSquared(ac);
  if (!(LengthSquared(n) > 1e-6 * ab2 * ac2)) return ClosestPointOnThinTriangle(p, vertex_a, vertex_b, vertex_c);
  const double size2 = ab2 + ac2;
  // Ericson 5.1.5: classify p against the vertex, edge and face regions with
  // dot products relative to the vertices, cheapest regions first. Each
  // region's conjunction (d1 <= 0 && d2 <= 0, ...) is one comparison of a
  // min or max (d4 <= d3 as d3 - d4 >= 0, exact in sign; the same outcome
  // for dot products short of overflow): one branch per region rather than
  // one per comparison. Every region is common on random
  // pairs (the benchmark's: vertices 7% each, edges and face 20% each), so
  // the branches mispredict; one per region halves that (0.9 rather than
  // 1.4 mispredictions per pair, ~4 ns of ~55).
  const Vec3 ap = -a;
  const double d1 = Dot(ab, ap);
  const double d2 = Dot(ac, ap);
  if (Max(d1, d2) <= 0.0) return TriangleClosestPoint{a, size2};
  const Vec3 bp = -b;
  const double d3 = Dot(ab, bp);
  const double d4 = Dot(ac, bp);
  if (Min(d3, d3 - d4) >= 0.0) return TriangleClosestPoint{b, size2};
  const double vc = d1 * d4 - d3 * d2;
  if (Max(Max(vc, d3), -d1) <= 0.0) {
    if (!(d1 - d3 > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{a + ab * (d1 / (d1 - d3)), size2};
  }
  const Vec3 cp = -c;
  const double d5 = Dot(ab, cp);
  const double d6 = Dot(ac, cp);
  if (Min(d6, d6 - d5) >= 0.0) return TriangleClosestPoint{c, size2};
  const double vb = d5 * d2 - d1 * d6;
  if (Max(Max(vb, d6), -d2) <= 0.0) {
    if (!(d2 - d6 > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{a + ac * (d2 / (d2 - d6)), size2};
  }
  const double va = d3 * d6 - d5 * d4;
  if (Min(Min(d4 - d3, d5 - d6), -va) >= 0.0) {
    if (!((d4 - d3) + (d5 - d6) > 0.0)) return TriangleClosestPoint{ClosestPointOnEdges(a, b, c), size2};
    return TriangleClosestPoint{b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))), size2};
  }
  // Face region: project on the plane, which keeps the distance exact to
  // round-off of |dot(a, n)| / |n| where the barycentric formula loses
  // digits on thin triangles.
  return TriangleClosestPoint{n * (Dot(a, n) / Dot(n, n)), size2};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
