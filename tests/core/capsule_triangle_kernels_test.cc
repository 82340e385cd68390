// Segment and capsule vs triangle kernels (issue 16) at every level and in
// both argument orders, against the GJK/EPA fallback and against a long
// double reference (the minimum over the analytic candidates: a crossing of
// the segment with the triangle, each endpoint against the triangle, the
// segment against each edge; the triangle's plane in binary128, since a
// sliver's normal loses ~1/sin of its digits), on random, touching, parallel-to-the-plane,
// crossing, in-plane, thin and degenerate cases at tiny to huge scales.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "collide/query.h"
#include "core/segment_reference.h"
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "support/case_count.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

using Long = __float128;
// Square root in binary128 without libquadmath (as exact_reference.cc):
// Newton's iteration from the double root.
Long Sqrt(Long x) {
  if (!(x > 0)) return 0;
  Long y = std::sqrt(static_cast<double>(x));
  for (int k = 0; k < 3; ++k) y = (y + x / y) / 2;
  return y;
}
Long Abs(Long x) { return x < 0 ? -x : x; }
using testing::RefPointSegment;
using testing::RefSegmentSegment;

struct L3 {
  Long x, y, z;
};
L3 Sub(const Vec3& u, const Vec3& v) {
  return {Long(u.x) - Long(v.x), Long(u.y) - Long(v.y), Long(u.z) - Long(v.z)};
}
L3 Cross(const L3& u, const L3& v) {
  return {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
}
Long Dot(const L3& u, const L3& v) { return u.x * v.x + u.y * v.y + u.z * v.z; }

// Distance from p to the triangle in long double: the plane when p projects
// inside (every sub-triangle's area along n >= 0), else the nearest edge.
Long RefPointTriangle(const Vec3& p, const Triangle& t) {
  const L3 a = Sub(t.a, p), b = Sub(t.b, p), c = Sub(t.c, p);
  const L3 n = Cross(Sub(t.b, t.a), Sub(t.c, t.a));
  const Long n2 = Dot(n, n);
  const Long edges =
      std::min({RefPointSegment(p, t.a, t.b), RefPointSegment(p, t.b, t.c), RefPointSegment(p, t.c, t.a)});
  if (n2 > 0 && Dot(Cross(a, b), n) >= 0 && Dot(Cross(b, c), n) >= 0 && Dot(Cross(c, a), n) >= 0) {
    return std::min(edges, Abs(Dot(a, n)) / Sqrt(n2));
  }
  return edges;
}

// Segment [p, q] to the triangle: 0 when it crosses the plane inside the
// triangle (the crossing point, in long double, on the inner side of every
// edge), else the nearest of the endpoints and edges.
Long RefSegmentTriangle(const Vec3& p, const Vec3& q, const Triangle& t) {
  const L3 ab = Sub(t.b, t.a), bc = Sub(t.c, t.b), ca = Sub(t.a, t.c);
  const L3 n = Cross(ab, Sub(t.c, t.a));
  const L3 pa = Sub(p, t.a), qa = Sub(q, t.a);
  const Long hp = Dot(n, pa), hq = Dot(n, qa);
  if (((hp <= 0 && hq >= 0) || (hp >= 0 && hq <= 0)) && hp != hq) {
    const Long s = hp / (hp - hq);
    const L3 xa{pa.x + s * (qa.x - pa.x), pa.y + s * (qa.y - pa.y), pa.z + s * (qa.z - pa.z)};  // x - a.
    const L3 xb{xa.x - ab.x, xa.y - ab.y, xa.z - ab.z};
    const L3 xc{xa.x + ca.x, xa.y + ca.y, xa.z + ca.z};
    if (Dot(Cross(ab, xa), n) >= 0 && Dot(Cross(bc, xb), n) >= 0 && Dot(Cross(ca, xc), n) >= 0) return 0;
  }
  return std::min({RefPointTriangle(p, t), RefPointTriangle(q, t), Long(RefSegmentSegment(p, q, t.a, t.b)),
                   Long(RefSegmentSegment(p, q, t.b, t.c)), Long(RefSegmentSegment(p, q, t.c, t.a))});
}

double Scale(const Vec3& p, const Vec3& q, const Triangle& t, double r) {
  double s = r;
  for (const Vec3& v : {p, q, t.a, t.b, t.c})
    s = std::max({s, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  return s;
}

// Checks every level of (core [p, q] of radius r, t) in both orders, against
// the reference within tol = 64 eps of the scene scale (the accuracy
// contract's), and against the fallback's distance and normal where `unique`.
void CheckShape(const Shape& a, const Vec3& p, const Vec3& q, double r, const Triangle& t, bool unique) {
  const double tol = 64 * std::numeric_limits<double>::epsilon() * Scale(p, q, t, r);
  const double exact = static_cast<double>(RefSegmentTriangle(p, q, t) - r);
  for (const QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult k = Query(level, a, t);
    const PairResult mirrored = Query(level, Shape{t}, a);
    EXPECT_EQ(mirrored, k.Flipped()) << QueryLevelName(level);
    ASSERT_EQ(k.status, QueryStatus::kOk);
    if (std::fabs(exact) > tol) {
      EXPECT_EQ(k.hit, exact <= 0) << QueryLevelName(level) << " exact " << exact;
    }
    if (level == QueryLevel::kIntersect) continue;
    const double want = level == QueryLevel::kDistance ? std::max(exact, 0.0) : exact;
    const bool kernel_path = !(level == QueryLevel::kContact && exact + r <= tol);
    // The contact level with the core on the triangle is the fallback's
    // (EPA: its own tolerance); everything else is the closed form's.
    if (kernel_path) {
      EXPECT_NEAR(k.distance, want, tol) << QueryLevelName(level);
    }
    EXPECT_EQ(k.hit, k.distance <= 0) << QueryLevelName(level);
    const PairResult g = QueryConvexFallback(level, a, t);
    EXPECT_NEAR(k.distance, g.distance, 1e-9 * std::max(1.0, Scale(p, q, t, r))) << QueryLevelName(level);
    // Witness points on the surfaces: B's on the triangle, A's at the radius
    // from the core (inside it when overlapping at kDistance).
    const double on_b = static_cast<double>(RefPointTriangle(k.point_b, t));
    EXPECT_LE(on_b, tol) << QueryLevelName(level);
    const double from_core = static_cast<double>(RefPointSegment(k.point_a, p, q));
    if (k.hit && level == QueryLevel::kDistance) {
      EXPECT_LE(from_core, r + tol);
      EXPECT_EQ(k.point_a, k.point_b);
    } else if (kernel_path) {
      EXPECT_NEAR(from_core, r, tol);
      EXPECT_NEAR(Length(k.normal), 1.0, 1e-15);
      EXPECT_LE(Length(k.point_b - k.point_a - k.normal * k.distance), tol);
      if (unique) {
        EXPECT_LE(Length(k.normal - g.normal), 1e-6)
            << testing::Describe(k) << " vs " << testing::Describe(g);
      }
    }
  }
}

// Check of the capsule, and at radius 0 of the segment too.
void Check(const Vec3& p, const Vec3& q, double r, const Triangle& t, const std::string& what,
           bool unique = true) {
  SCOPED_TRACE(what);
  CheckShape(Capsule{p, q, r}, p, q, r, t, unique);
  if (r == 0.0) CheckShape(Segment{p, q}, p, q, r, t, unique);
}

TEST(CapsuleTriangleKernelsTest, RandomPairsMatchReferenceAndFallback) {
  testing::ShapeFactory f(161, 0.7);
  int hits = 0;
  const int n = testing::CaseCount(4000);
  for (int i = 0; i < n; ++i) {
    const Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
    const Capsule c = std::get<Capsule>(f.Make(ShapeKind::kCapsule));
    const double r = i % 2 ? c.radius : 0.0;
    Check(c.a, c.b, r, t, "random #" + std::to_string(i));
    hits += Query(QueryLevel::kIntersect, Capsule{c.a, c.b, r}, t).hit;
  }
  EXPECT_GT(hits, n / 10);
}

// A segment parallel to the triangle's plane over its face, at heights from
// 1 to 1e-15 of the size, at every scale: the distance is the height.
TEST(CapsuleTriangleKernelsTest, ParallelOverTheFaceAtTinyOffsets) {
  testing::ShapeFactory f(162, 1.0);
  for (const double scale : {1e-9, 1.0, 1e9}) {
    for (int i = 0; i < testing::CaseCount(300); ++i) {
      Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
      const Vec3 n = NormalizedOr(Cross(t.b - t.a, t.c - t.a), Vec3{0, 0, 1});
      const double h = std::pow(10.0, -(i % 16)) * (i % 3 == 0 ? -1 : 1);
      // Endpoints inside the face (barycentric) or beyond an edge.
      const auto in_plane = [&](double u, double v) { return t.a + (t.b - t.a) * u + (t.c - t.a) * v; };
      const Vec3 p = in_plane(f.Uniform(0.05, 0.4), f.Uniform(0.05, 0.4)) + n * h;
      const Vec3 q = in_plane(f.Uniform(0.05, i % 4 ? 0.4 : 1.5), f.Uniform(0.05, 0.4)) + n * h;
      t = {t.a * scale, t.b * scale, t.c * scale};
      const double r = i % 2 ? 0.0 : f.Size() * std::fabs(h) * 2;
      Check(p * scale, q * scale, r * scale, t,
            "parallel #" + std::to_string(i) + " scale " + std::to_string(scale),
            /*unique=*/false);
    }
  }
}

// Segments crossing the face, touching it at an endpoint, through an edge
// or a vertex, and lying in the plane.
TEST(CapsuleTriangleKernelsTest, CrossingTouchingAndInPlane) {
  testing::ShapeFactory f(163, 1.0);
  for (int i = 0; i < testing::CaseCount(1500); ++i) {
    const Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
    const Vec3 n = NormalizedOr(Cross(t.b - t.a, t.c - t.a), Vec3{0, 0, 1});
    const double u = std::round(f.Uniform(-1, 3)) / 2, v = std::round(f.Uniform(-1, 3)) / 2;
    const Vec3 x = t.a + (t.b - t.a) * u + (t.c - t.a) * v;  // inside, on an edge or vertex, or outside.
    const Vec3 dir = i % 5 == 0
                         ? (t.b - t.a) * f.Uniform(-1, 1) + (t.c - t.a) * f.Uniform(-1, 1)  // in plane.
                         : f.UnitVector() * f.Size() + n * (i % 2 ? 0.3 : 0.0);
    const double k = i % 3 == 0 ? 0.0 : f.Uniform(0, 1);  // 0: an endpoint on x.
    const Vec3 p = x - dir * k, q = x + dir * (1 - k);
    const double r = i % 2 ? 0.0 : f.Size();
    Check(p, q, r, t, "touching #" + std::to_string(i), /*unique=*/false);
  }
}

// Thin triangles (c near the line ab at relative heights 1e-2 to 1e-12) at
// every scale.
TEST(CapsuleTriangleKernelsTest, ThinTrianglesAtEveryScale) {
  testing::ShapeFactory f(164, 1.0);
  for (const double scale : {1e-12, 1e-3, 1.0, 1e4, 1e12}) {
    for (int i = 0; i < testing::CaseCount(400); ++i) {
      Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
      const Vec3 side = Cross(t.b - t.a, f.UnitVector());
      t.c = t.a + (t.b - t.a) * f.Uniform(-0.5, 1.5) + side * std::pow(10.0, -2.0 - (i % 11));
      const Capsule c = std::get<Capsule>(f.Make(ShapeKind::kCapsule));
      t = {t.a * scale, t.b * scale, t.c * scale};
      const double r = i % 2 ? 0.0 : c.radius * scale;
      Check(c.a * scale, c.b * scale, r, t, "thin #" + std::to_string(i) + " scale " + std::to_string(scale));
    }
  }
}

// The intersect kernel's early answers (bounding boxes; an endpoint's ball
// by the sphere kernel's separating axes) must be every level's hit, also
// within ulps of touching and far from the origin: radii set to the core's
// distance and nudged by a few ulps.
TEST(CapsuleTriangleKernelsTest, IntersectAgreesWithOtherLevelsWhenTouching) {
  for (const double offset : {0.0, 1e6}) {
    testing::ShapeFactory f(165, 1.0);
    int hits = 0, misses = 0;
    for (int i = 0; i < testing::CaseCount(3000); ++i) {
      const Vec3 shift{offset, -offset, 0.5 * offset};
      Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
      t = {t.a + shift, t.b + shift, t.c + shift};
      const Capsule c = std::get<Capsule>(f.Make(ShapeKind::kCapsule));
      const Segment s{c.a + shift, c.b + shift};
      double r = ContactSegmentTriangle(s, t).distance;
      if (!(r > 0.0)) continue;
      for (int k = 0; k < (i % 7) - 3; ++k) r = std::nextafter(r, kInfinity);
      for (int k = 0; k > (i % 7) - 3; --k) r = std::nextafter(r, 0.0);
      const Capsule cap{s.a, s.b, r};
      const bool hit = ContactCapsuleTriangle(cap, t).hit;
      ASSERT_EQ(IntersectCapsuleTriangle(cap, t), hit) << "#" << i << " offset " << offset;
      ASSERT_EQ(DistanceCapsuleTriangle(cap, t).hit, hit) << "#" << i << " offset " << offset;
      hits += hit;
      misses += !hit;
    }
    EXPECT_GT(hits, testing::CaseCount(3000) / 5);
    EXPECT_GT(misses, testing::CaseCount(3000) / 5);
  }
}

TEST(CapsuleTriangleKernelsTest, DegenerateTrianglesUseTheFallback) {
  const Triangle line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  const Triangle dot{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  for (const Triangle& t : {line, dot}) {
    for (const double r : {0.0, 0.5}) {
      const Capsule c{{0.5, 1, -1}, {0.5, 1, 1}, r};
      for (const QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
        EXPECT_EQ(Query(level, c, t), QueryConvexFallback(level, c, t));
        EXPECT_EQ(Query(level, Segment{c.a, c.b}, t), QueryConvexFallback(level, Segment{c.a, c.b}, t));
      }
    }
  }
}

TEST(CapsuleTriangleKernelsTest, Analytic) {
  const Triangle t{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  // Lying on the face at height 0.25 with radius 0.5.
  PairResult r = ContactCapsuleTriangle(Capsule{{0.2, 0.5, 0.25}, {0.8, 0.5, 0.25}, 0.5}, t);
  EXPECT_TRUE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, -0.25);
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
  EXPECT_EQ(r.point_b.z, 0.0);
  // Parallel to the edge x + y = 2, outside it by 1 / sqrt(2) in a plane 1
  // above.
  r = ContactSegmentTriangle(Segment{{2, 1, 1}, {1, 2, 1}}, t);
  EXPECT_FALSE(r.hit);
  EXPECT_NEAR(r.distance, std::sqrt(1.0 + 0.5), 1e-15);
  // Crossing the face: distance 0 at kDistance, a common point.
  r = DistanceSegmentTriangle(Segment{{0.5, 0.5, -1}, {0.5, 0.5, 1}}, t);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.point_a, (Vec3{0.5, 0.5, 0}));
  // Standing beside the edge x + y = 2, 1 / sqrt(2) from it.
  EXPECT_TRUE(IntersectCapsuleTriangle(Capsule{{2, 1, 0}, {2, 1, 1}, 0.71}, t));
  EXPECT_FALSE(IntersectCapsuleTriangle(Capsule{{2, 1, 0}, {2, 1, 1}, 0.70}, t));
}

}  // namespace
}  // namespace collide::internal
