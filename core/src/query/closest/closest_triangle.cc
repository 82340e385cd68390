#include "query/closest/closest_triangle.h"

#include <algorithm>

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

namespace {

using Long = long double;
struct Long3 {
  Long x, y, z;
};
Long3 Of(const Vec3& v) { return {v.x, v.y, v.z}; }
Long3 operator-(const Long3& p, const Long3& q) { return {p.x - q.x, p.y - q.y, p.z - q.z}; }
Long3 operator+(const Long3& p, const Long3& q) { return {p.x + q.x, p.y + q.y, p.z + q.z}; }
Long3 operator*(const Long3& p, Long s) { return {p.x * s, p.y * s, p.z * s}; }
Long Dot(const Long3& p, const Long3& q) { return p.x * q.x + p.y * q.y + p.z * q.z; }
Long3 Cross(const Long3& p, const Long3& q) {
  return {p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x};
}
Vec3 ToVec3(const Long3& p) {
  return {static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(p.z)};
}

// The point of segment [p, q] nearest to the origin.
Long3 NearestOnSegment(const Long3& p, const Long3& q) {
  const Long3 e = q - p;
  const Long e2 = Dot(e, e);
  const Long t = e2 > 0 ? std::clamp(-Dot(p, e) / e2, Long(0), Long(1)) : Long(0);
  return p + e * t;
}

}  // namespace

std::optional<TriangleClosestPoint> ClosestPointOnThinTriangle(const Vec3& p, const Vec3& vertex_a,
                                                               const Vec3& vertex_b, const Vec3& vertex_c) {
  const Long3 o = Of(p);
  const Long3 a = Of(vertex_a) - o, b = Of(vertex_b) - o, c = Of(vertex_c) - o;
  const Long3 ab = b - a, ac = c - a;
  const Long3 n = Cross(ab, ac);
  const Long ab2 = Dot(ab, ab), ac2 = Dot(ac, ac), n2 = Dot(n, n);
  // The GJK sub-algorithm's collinearity test (sin < ~1e-14).
  if (!(n2 > Long(1e-28) * ab2 * ac2)) return std::nullopt;
  const double size2 = static_cast<double>(ab2 + ac2);
  Long3 best = NearestOnSegment(a, b);
  Long best2 = Dot(best, best);
  for (const Long3& q : {NearestOnSegment(b, c), NearestOnSegment(c, a)}) {
    const Long q2 = Dot(q, q);
    if (q2 < best2) best = q, best2 = q2;
  }
  // The origin projects into the triangle when it sees each edge on the
  // same side as n (the sub-triangles' areas along n are all >= 0).
  if (Dot(Cross(a, b), n) >= 0 && Dot(Cross(b, c), n) >= 0 && Dot(Cross(c, a), n) >= 0) {
    const Long3 face = n * (Dot(a, n) / n2);
    if (Dot(face, face) < best2) best = face;
  }
  return TriangleClosestPoint{ToVec3(best), size2};
}

}  // namespace collide::internal
