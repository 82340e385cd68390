// Point and sphere vs triangle kernels against the GJK fallback, on random,
// touching, in-plane and degenerate cases, at every level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "query/kernels_convex.h"
#include "query/registry.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

void ExpectSame(const PairResult& k, const PairResult& f, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(k.status, f.status);
  ASSERT_EQ(k.hit, f.hit);
  EXPECT_NEAR(k.distance, f.distance, 1e-12);
  EXPECT_NEAR(Length(k.normal - f.normal), 0.0, 1e-9);
  // Overlapping at the distance level, any point in both shapes will do.
  if (k.hit && k.normal == Vec3{}) return;
  EXPECT_NEAR(Length(k.point_a - f.point_a), 0.0, 1e-9);
  EXPECT_NEAR(Length(k.point_b - f.point_b), 0.0, 1e-9);
}

void CheckAgainstFallback(const Shape& ball, const Triangle& t, const std::string& what) {
  const bool is_point = std::holds_alternative<Point>(ball);
  const Point* p = std::get_if<Point>(&ball);
  const Sphere* s = std::get_if<Sphere>(&ball);
  const PairResult contact = is_point ? ContactPointTriangle(*p, t) : ContactSphereTriangle(*s, t);
  const PairResult distance = is_point ? DistancePointTriangle(*p, t) : DistanceSphereTriangle(*s, t);
  const bool hit = is_point ? IntersectPointTriangle(*p, t) : IntersectSphereTriangle(*s, t);
  ExpectSame(contact, QueryConvexFallback(QueryLevel::kContact, ball, t), what + " contact");
  ExpectSame(distance, QueryConvexFallback(QueryLevel::kDistance, ball, t), what + " distance");
  EXPECT_EQ(hit, QueryConvexFallback(QueryLevel::kIntersect, ball, t).hit) << what;
  if (distance.hit) {
    // The distance level's point is on the triangle and in the ball.
    EXPECT_LE(QueryConvexFallback(QueryLevel::kDistance, Point{distance.point_a}, t).distance, 1e-12);
    if (s) EXPECT_LE(Length(distance.point_a - s->center), s->radius + 1e-12);
  }
}

TEST(TriangleKernelsTest, RandomPointsAndSpheresMatchTheFallback) {
  testing::ShapeFactory f(51, 0.6);
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
    const Shape ball = i % 2 ? f.Make(ShapeKind::kPoint) : f.Make(ShapeKind::kSphere);
    CheckAgainstFallback(ball, t, "#" + std::to_string(i));
    hits += QueryConvexFallback(QueryLevel::kIntersect, ball, t).hit;
  }
  EXPECT_GT(hits, 500);
}

TEST(TriangleKernelsTest, CentersOnTheTriangleAndInItsPlane) {
  testing::ShapeFactory f(52, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
    // Barycentric points inside, on edges and vertices, and outside in the
    // plane.
    const double u = std::round(f.Uniform(-1, 3)) / 2, v = std::round(f.Uniform(-1, 3)) / 2;
    const Vec3 c = t.a + (t.b - t.a) * u + (t.c - t.a) * v;
    CheckAgainstFallback(Point{c}, t, "point #" + std::to_string(i));
    CheckAgainstFallback(Sphere{c, f.Size()}, t, "sphere #" + std::to_string(i));
  }
}

TEST(TriangleKernelsTest, DegenerateTrianglesUseTheFallback) {
  const Triangle line{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  const Triangle dot{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  for (const Triangle& t : {line, dot}) {
    for (const Vec3& c : {Vec3{0.5, 0, 0}, Vec3{0.5, 1, 0}, Vec3{1, 1, 1}, Vec3{3, 0, 0}}) {
      CheckAgainstFallback(Point{c}, t, "degenerate point");
      CheckAgainstFallback(Sphere{c, 0.5}, t, "degenerate sphere");
    }
  }
}

// A sliver (sin ~1e-13 at its vertex a: c lies on ab to 13 digits) touched
// at a vertex by a zero-radius sphere: its plane normal cannot be computed to
// the convention's tolerance, so the answer is the fallback's, whose normal
// leaves every vertex of the triangle at the witness's height or below
// (found by the invariants test in the clang ASan build).
TEST(TriangleKernelsTest, SliverTouchedAtAVertexGetsAnExactNormal) {
  const Triangle t{{0.41811297687622695, 0.19704992000667007, -0.11727875324972475},
                   {0.21006244831313289, -0.040428802036268668, 0.038470775522859435},
                   {0.41717885754434403, 0.19598367198171546, -0.11657945848338626}};
  const Sphere s{{0.21006244831313292, -0.040428802036268668, 0.038470775522859435}, 0.0};
  const PairResult r = ContactSphereTriangle(s, t);
  ASSERT_TRUE(r.hit);
  // B = the triangle: its support along -normal is at the witness point_b.
  for (const Vec3& v : {t.a, t.b, t.c}) EXPECT_GE(Dot(r.normal, v - r.point_b), -1e-9);
  EXPECT_EQ(r, QueryConvexFallback(QueryLevel::kContact, s, t));
}

// The intersect kernel rejects far pairs by the triangle's bounding box
// before the closest-point work; its margin must keep its answer exactly the
// contact kernel's hit, also within rounding of touching and far from the
// origin. Radii are set to the contact distance and nudged by a few ulps.
TEST(TriangleKernelsTest, IntersectEarlyRejectAgreesWithContactWhenTouching) {
  for (const double offset : {0.0, 1e6, -1e12}) {
    testing::ShapeFactory f(53, 2.0);
    int hits = 0, misses = 0;
    for (int i = 0; i < 4000; ++i) {
      Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
      const Vec3 shift{offset, -offset, 0.5 * offset};
      t = {t.a + shift, t.b + shift, t.c + shift};
      // Every other center lies straight out along +x from the vertex of
      // largest x: that vertex is then the closest point, and the box gap
      // equals the distance (the case the reject's margin is for).
      const Vec3& v = t.a.x >= t.b.x && t.a.x >= t.c.x ? t.a : (t.b.x >= t.c.x ? t.b : t.c);
      const Vec3 center = i % 2 ? f.Position() + shift : v + Vec3{f.Uniform(0.01, 1.0), 0, 0};
      const double d = ContactSphereTriangle(Sphere{center, 0.0}, t).distance;
      double r = d;
      for (int k = 0; k < (i % 7) - 3; ++k) r = std::nextafter(r, kInfinity);
      for (int k = 0; k > (i % 7) - 3; --k) r = std::nextafter(r, 0.0);
      const Sphere s{center, std::max(r, 0.0)};
      const bool hit = ContactSphereTriangle(s, t).hit;
      ASSERT_EQ(IntersectSphereTriangle(s, t), hit) << "#" << i << " offset " << offset;
      hits += hit;
      misses += !hit;
    }
    EXPECT_GT(hits, 1000);
    EXPECT_GT(misses, 1000);
  }
}

// The intersect kernel decides by separating axes with squared quantities
// and a margin, and by the closest point only within the margin of
// touching: its answer must still be the contact kernel's hit, at radii just
// outside the margin (the separating axes decide) and inside it, on thin
// triangles and at every scale.
TEST(TriangleKernelsTest, IntersectSeparatingAxesAgreeWithContact) {
  const double factors[] = {0.0, 0.5,       1 - 1e-3, 1 - 1e-5, 1 - 1e-7, 1 - 1e-12,
                            1.0, 1 + 1e-12, 1 + 1e-7, 1 + 1e-5, 1 + 1e-3, 2.0};
  for (const double scale : {1e-30, 1e-9, 1.0, 1e9, 1e30}) {
    testing::ShapeFactory f(54, 1.0);
    int hits = 0, misses = 0;
    for (int i = 0; i < 1500; ++i) {
      Triangle t = std::get<Triangle>(f.Make(ShapeKind::kTriangle));
      // A third of the triangles are thin: c near the line ab, at relative
      // heights from 1e-2 (fast path) to 1e-12 (closest-point path).
      if (i % 3 == 0) {
        const Vec3 side = Cross(t.b - t.a, f.Position() - t.a);
        t.c = t.a + (t.b - t.a) * f.Uniform(-0.5, 1.5) + side * std::pow(10.0, -2.0 - (i % 11));
      }
      t = {t.a * scale, t.b * scale, t.c * scale};
      const Vec3 center = f.Position() * scale;
      const double d = ContactSphereTriangle(Sphere{center, 0.0}, t).distance;
      for (const double k : factors) {
        const Sphere s{center, d * k};
        const bool hit = ContactSphereTriangle(s, t).hit;
        ASSERT_EQ(IntersectSphereTriangle(s, t), hit) << "#" << i << " scale " << scale << " factor " << k;
        hits += hit;
        misses += !hit;
      }
    }
    EXPECT_GT(hits, 5000);
    EXPECT_GT(misses, 5000);
  }
}

TEST(TriangleKernelsTest, SphereOnFaceAnalytic) {
  const Triangle t{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
  PairResult r = ContactSphereTriangle(Sphere{{0.5, 0.5, 0.25}, 0.5}, t);
  EXPECT_TRUE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, -0.25);
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
  EXPECT_EQ(r.point_b, (Vec3{0.5, 0.5, 0}));
  // Center in the face: depth = radius, normal +z by the sign convention.
  r = ContactSphereTriangle(Sphere{{0.5, 0.5, 0}, 0.5}, t);
  EXPECT_DOUBLE_EQ(r.distance, -0.5);
  EXPECT_EQ(r.normal, (Vec3{0, 0, 1}));
  // Near an edge from outside, in the plane.
  r = ContactPointTriangle(Point{{-1, 1, 0}}, t);
  EXPECT_FALSE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, 1.0);
  EXPECT_EQ(r.normal, (Vec3{1, 0, 0}));
}

}  // namespace
}  // namespace collide::internal
