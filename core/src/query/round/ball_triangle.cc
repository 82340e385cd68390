#include "query/round/ball_triangle.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "query/closest/closest.h"
#include "query/closest/closest_triangle.h"
#include "query/convex/epa.h"
#include "query/convex/gjk.h"

namespace collide::internal {
namespace {

// The triangle's point nearest to the ball's center, everything relative to
// the center (box2d's "shift to the origin for round-off": the rounding is
// then relative to the triangle's distance, not to its coordinates).
struct Nearest {
  Vec3 q;              // the triangle's closest point, relative to the center.
  double d2;           // |q|^2.
  bool touching_core;  // the center is on the triangle to GJK's touch tolerance.
};

// nullopt when the triangle is degenerate. Always inline: out of line its
// optional result went through the stack.
[[gnu::always_inline]] inline std::optional<Nearest> NearestToCenter(const Vec3& center, const Triangle& t) {
  const std::optional<TriangleClosestPoint> c = ClosestPointOnTriangle(center, t.a, t.b, t.c);
  if (!c) return std::nullopt;
  Nearest r;
  r.q = c->offset;
  r.d2 = LengthSquared(r.q);
  // The center is on the triangle's core when within 16 eps of its size
  // (sqrt(size2) >= its longest edge): the rounding of a point computed on
  // the triangle, and inside the accuracy contract's touching band
  // (docs/queries.md, "Accuracy contract"). GJK's touch tolerance (1e-13 of
  // the size) would snap centers up to 1e-13 away onto the triangle, an
  // error of that size in the distance and depth (issue 14, class 5).
  constexpr double kTouch = 16.0 * std::numeric_limits<double>::epsilon();
  r.touching_core = r.d2 <= kTouch * kTouch * c->size2;
  return r;
}

// The touching-core answer (GJK's convention): at kDistance the center is
// the witness on both sides; at kContact the difference of the cores is
// flat, so the depth is the radius along the plane normal.
[[gnu::noinline]] PairResult TouchingCoreResult(QueryLevel level, const Vec3& center, double radius,
                                                const Triangle& t) {
  if (level != QueryLevel::kContact) return {QueryStatus::kOk, true, 0.0, center, center, {}};
  const Vec3 ab = t.b - t.a, ac = t.c - t.a;
  const Vec3 n = Cross(ab, ac);
  // The plane normal's direction is off by about eps / sin (sin: of the
  // angle at a): on a sliver thinner than sin 1e-6 that exceeds the result
  // convention's tolerance (every vertex at the same height along the
  // normal), so such a triangle goes to the fallback, as a degenerate one
  // does (seen on a sliver with sin ~1e-13 touched at a vertex).
  const double n2 = LengthSquared(n);
  if (!(n2 > 1e-12 * LengthSquared(ab) * LengthSquared(ac)))
    return {QueryStatus::kUnsupported, false, 0.0, {}, {}, {}};
  const Vec3 normal = PreferPositiveSign(UnitOf(n, n2));  // n2 may be subnormal (edges ~1e-80).
  return {QueryStatus::kOk, true, radius > 0.0 ? -radius : 0.0, center + normal * radius, center, normal};
}

// The hit as every level reports it (QueryBallTriangle). Out of line: the
// intersect kernel's fast path rarely needs it, and inlined its live values
// cost the fast path spills.
[[gnu::noinline]] std::optional<bool> ExactHit(const Vec3& center, double radius, const Triangle& t) {
  const std::optional<Nearest> p = NearestToCenter(center, t);
  if (!p) return std::nullopt;
  return (p->d2 > 0.0 ? LengthAndUnitOf(p->q, p->d2).length : 0.0) <= radius || p->touching_core;
}

// A triangle's three vertices (or edges, or per-vertex values) side by side,
// one per lane, in two pairs of GCC/Clang vector extensions: (v0, v1) and
// (v2, v0), SSE2 registers on x86-64 (32-byte vectors without AVX compile
// to scalar comparisons). Lane 3 repeats lane 0, so that it never changes a
// result; arithmetic on lanes costs about half the instructions of scalar
// code.
using LanePair = double __attribute__((vector_size(16)));
using LanePairMask = long long __attribute__((vector_size(16)));  // -1 or 0 per lane.
struct Lanes {
  LanePair lo, hi;
};
struct Mask {
  LanePairMask lo, hi;
  bool Any() const { return ((lo | hi)[0] | (lo | hi)[1]) != 0; }
};
Lanes Of(double v0, double v1, double v2) { return {LanePair{v0, v1}, LanePair{v2, v0}}; }
Lanes operator+(const Lanes& p, const Lanes& q) { return {p.lo + q.lo, p.hi + q.hi}; }
Lanes operator-(const Lanes& p, const Lanes& q) { return {p.lo - q.lo, p.hi - q.hi}; }
Lanes operator*(const Lanes& p, const Lanes& q) { return {p.lo * q.lo, p.hi * q.hi}; }
Lanes operator*(const Lanes& p, double s) { return {p.lo * s, p.hi * s}; }
Mask operator>(const Lanes& p, const Lanes& q) { return {p.lo > q.lo, p.hi > q.hi}; }
Mask operator>(const Lanes& p, double s) { return {p.lo > s, p.hi > s}; }
Mask operator&(const Mask& p, const Mask& q) { return {p.lo & q.lo, p.hi & q.hi}; }
Mask operator|(const Mask& p, const Mask& q) { return {p.lo | q.lo, p.hi | q.hi}; }
// (v0, v1, v2, v0) -> (v1, v2, v0, v1) and (v2, v0, v1, v2).
Lanes Next(const Lanes& v) {
  return {__builtin_shufflevector(v.lo, v.hi, 1, 2), __builtin_shufflevector(v.hi, v.lo, 1, 3)};
}
Lanes Prev(const Lanes& v) {
  return {__builtin_shufflevector(v.hi, v.lo, 0, 2), __builtin_shufflevector(v.lo, v.hi, 1, 2)};
}

}  // namespace

std::optional<bool> IntersectBallTriangle(const Vec3& center, double radius, const Triangle& t) {
  // The separating-axis test of Ericson, "Optimizing a Sphere-Triangle
  // Intersection Test" (realtimecollisiondetection.net, 2010): the center
  // (the origin here) is farther than R from the triangle exactly when one
  // of seven axes separates it: the face normal n; a vertex v's direction,
  // when v is the triangle's nearest point along it (Dot(v, w) > |v|^2 for
  // the two other vertices w); an edge's perpendicular q = v |e|^2 - e
  // Dot(v, e) (|q| / |e|^2 is the distance to the edge's line), when the
  // third vertex lies beyond the line along q. Squared quantities only: no
  // division, no square root, no closest point, and the tests combine
  // without branches (on random pairs they are unpredictable). The vertex
  // and edge tests run on the three vertices at once, one per lane
  // (vertices a, b, c, and edges ab, bc, ca starting at them; lane 3 repeats
  // a, whose edge is zero and never separates).
  const Vec3 a = t.a - center, b = t.b - center, c = t.c - center;
  // The face first, in scalar code: n = ab x ca = -(ab x ac) (only n's
  // square is used).
  const Vec3 ab = b - a, ca = a - c;
  const Vec3 n = Cross(ab, ca);
  const double nn = Dot(n, n), an = Dot(a, n);
  const double aa = Dot(a, a), e1 = Dot(ab, ab), e3 = Dot(ca, ca);
  // The answer must be the other levels' (hit = |closest point| <= radius,
  // or the touching core), bit for bit. Both computations are within a few
  // ulps of S = max |vertex| of the exact distance, with the face normal's
  // direction good to 1e-12 when the triangle's angle at a has sin >= 1e-4.
  // With a margin m = 1e-9 S (which also covers the touch tolerance, 1e-13
  // S), separated(r + m) is a certain miss and !separated(r - m) a certain
  // hit. No square root: S^2 <= 2 s2 with s2 = |a|^2 + |ab|^2 + |ca|^2, and
  // (r +- m)^2 is bounded by r^2 (1 +- 1e-6) +- 1e6 m^2 (2 r m <= 1e-6 r^2 +
  // 1e6 m^2). Pairs between the two (within about 1e-6 (r + S) of
  // touching), thin triangles, tiny edges and scales where the sixth powers
  // below could overflow or underflow take the exact path.
  const double s2 = aa + e1 + e3;
  const bool well_conditioned =
      nn > 1e-8 * e1 * e3 && s2 > 1e-50 && s2 < 1e50 && e1 > 1e-20 * s2 && e3 > 1e-20 * s2;
  if (!well_conditioned) return ExactHit(center, radius, t);
  const double rr_miss = radius * radius * (1.0 + 1e-6) + 2e-12 * s2;
  const double rr_hit = radius * radius * (1.0 - 1e-6) - 2e-12 * s2;
  // The plane alone answers 35% of the benchmark's random pairs, and a
  // vertex in the ball half of the rest (no other axis can then separate),
  // each for a fraction of the whole test's work.
  if (an * an > rr_miss * nn) return false;
  const double bb = Dot(b, b), cc = Dot(c, c);
  if (std::min({aa, bb, cc}) < rr_hit) return true;
  // The vertex and edge axes, one vertex or edge per lane.
  const Lanes x = Of(a.x, b.x, c.x), y = Of(a.y, b.y, c.y), z = Of(a.z, b.z, c.z);
  const Lanes xn = Next(x), yn = Next(y), zn = Next(z);  // b, c, a.
  const Lanes ex = xn - x, ey = yn - y, ez = zn - z;     // ab, bc, ca.
  const Lanes vv = Of(aa, bb, cc);                       // |a|^2, |b|^2, |c|^2.
  const Lanes ee = ex * ex + ey * ey + ez * ez;          // |ab|^2, |bc|^2, |ca|^2.
  const Lanes vn = x * xn + y * yn + z * zn;             // Dot(a, b), Dot(b, c), Dot(c, a).
  const Lanes ve = vn - vv;                              // Dot(a, ab), ...
  const Lanes qx = x * ee - ex * ve, qy = y * ee - ey * ve, qz = z * ee - ez * ve;
  const Lanes qq = qx * qx + qy * qy + qz * qz;
  // The third vertex (c for edge ab) relative to the foot of q, times |e|^2.
  const Lanes wx = Next(xn) * ee - qx, wy = Next(yn) * ee - qy, wz = Next(zn) * ee - qz;
  // The region conditions, which do not depend on the radius.
  const Mask beyond_edge = qx * wx + qy * wy + qz * wz > 0.0;
  const Mask beyond_vertex = (vn > vv) & (Prev(vn) > vv);
  const auto separated = [&](double rr) {
    return (an * an > rr * nn) | ((beyond_vertex & (vv > rr)) | (beyond_edge & (qq > ee * ee * rr))).Any();
  };
  if (separated(rr_miss)) return false;
  if (rr_hit > 0.0 && !separated(rr_hit)) return true;
  return ExactHit(center, radius, t);
}

namespace {

// A result with only a status and a hit (a degenerate triangle, the
// kIntersect level), out of line: its zero fields built in place compile to
// a `rep stosq` of 88 bytes, slow to start on AMD, and these paths are rare
// (intersect kernels use IntersectBallTriangle).
[[gnu::noinline, gnu::cold]] PairResult BareResult(QueryStatus status, bool hit) {
  return {status, hit, 0.0, {}, {}, {}};
}

}  // namespace

PairResult QueryBallTriangle(QueryLevel level, const Vec3& center, double radius, const Triangle& t) {
  // Every path builds the whole result, which the kernels return in place:
  // a default-constructed PairResult filled field by field compiles to a
  // `rep stosq` of 88 bytes first, slow to start on this machine.
  const std::optional<Nearest> p = NearestToCenter(center, t);
  if (!p) return BareResult(QueryStatus::kUnsupported, false);
  if (p->touching_core) return TouchingCoreResult(level, center, radius, t);
  // Not touching, so d2 > 0: one square root and one reciprocal give the
  // distance and the unit normal.
  const LengthAndUnit g = LengthAndUnitOfHot(p->q, p->d2);
  const Vec3 q = center + p->q;
  const bool hit = g.length <= radius;
  if (level == QueryLevel::kIntersect) return BareResult(QueryStatus::kOk, hit);
  if (level == QueryLevel::kDistance) {
    // An overlap needs only a common point: q is on the triangle and within
    // the radius of the center; distance and normal are zero. Selected by
    // arithmetic, keep = 0 on a hit and 1 on a miss, not by a branch: hit is
    // unpredictable on random pairs and a mispredicted branch costs more
    // than these few multiplications (+ 0.0 turns -0 into +0).
    const double keep = static_cast<double>(!hit);
    const Vec3 normal = g.unit * keep + Vec3{};
    return {QueryStatus::kOk,
            hit,
            (g.length - radius) * keep + 0.0,
            center + (p->q * (1.0 - keep) + normal * radius),
            q,
            normal};
  }
  // g.length - radius is +0 when touching exactly.
  return {QueryStatus::kOk, hit, g.length - radius, center + g.unit * radius, q, g.unit};
}

}  // namespace collide::internal
