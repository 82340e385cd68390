// GJK distance and its signed-volumes sub-algorithm, on analytic simplices
// and on random polytope pairs checked by a brute-force optimality
// certificate.
#include "query/convex/gjk.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/random_shapes.h"

namespace collide::internal {
namespace {

Simplex MakeSimplex(std::initializer_list<Vec3> points) {
  Simplex s;
  for (const Vec3& p : points) s.v[s.size++] = {p, p, Vec3{}};
  return s;
}

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

TEST(SignedVolumesTest, SegmentInteriorAndEndpoints) {
  Simplex s = MakeSimplex({{-1, 1, 0}, {3, 1, 0}});
  ExpectVecNear(ReduceToClosest(s), {0, 1, 0}, 1e-15);
  EXPECT_EQ(s.size, 2);
  EXPECT_NEAR(s.lambda[0], 0.75, 1e-15);
  EXPECT_NEAR(s.lambda[1], 0.25, 1e-15);
  s = MakeSimplex({{1, 1, 0}, {3, 1, 0}});
  EXPECT_EQ(ReduceToClosest(s), (Vec3{1, 1, 0}));
  EXPECT_EQ(s.size, 1);
}

TEST(SignedVolumesTest, TriangleFaceEdgeAndVertexRegions) {
  Simplex s = MakeSimplex({{-1, -1, 2}, {3, -1, 2}, {-1, 3, 2}});
  ExpectVecNear(ReduceToClosest(s), {0, 0, 2}, 1e-15);
  EXPECT_EQ(s.size, 3);
  EXPECT_NEAR(s.lambda[0] + s.lambda[1] + s.lambda[2], 1.0, 1e-15);
  s = MakeSimplex({{1, -1, 0}, {1, 1, 0}, {3, 0, 0}});
  ExpectVecNear(ReduceToClosest(s), {1, 0, 0}, 1e-15);
  EXPECT_EQ(s.size, 2);
  s = MakeSimplex({{1, 1, 0}, {3, 1, 0}, {1, 3, 0}});
  EXPECT_EQ(ReduceToClosest(s), (Vec3{1, 1, 0}));
  EXPECT_EQ(s.size, 1);
}

TEST(SignedVolumesTest, CollinearTriangleFallsBackToItsEdges) {
  Simplex s = MakeSimplex({{-1, 1, 0}, {1, 1, 0}, {3, 1, 0}});
  ExpectVecNear(ReduceToClosest(s), {0, 1, 0}, 1e-15);
  EXPECT_EQ(s.size, 2);
}

TEST(SignedVolumesTest, TetrahedronHoldingTheOriginAndOutside) {
  Simplex s = MakeSimplex({{-1, -1, -1}, {3, -1, -1}, {-1, 3, -1}, {-1, -1, 3}});
  EXPECT_EQ(ReduceToClosest(s), (Vec3{}));
  EXPECT_EQ(s.size, 4);
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    EXPECT_GT(s.lambda[i], 0);
    sum += s.lambda[i];
  }
  EXPECT_NEAR(sum, 1.0, 1e-15);
  // Shifted up by 2 in z: the closest point is on the bottom face z = 1.
  s = MakeSimplex({{-1, -1, 1}, {3, -1, 1}, {-1, 3, 1}, {-1, -1, 5}});
  ExpectVecNear(ReduceToClosest(s), {0, 0, 1}, 1e-15);
  EXPECT_EQ(s.size, 3);
}

TEST(SignedVolumesTest, FlatTetrahedronUsesItsFaces) {
  Simplex s = MakeSimplex({{-1, -1, 1}, {1, -1, 1}, {0, 1, 1}, {0, 0, 1}});
  ExpectVecNear(ReduceToClosest(s), {0, 0, 1}, 1e-15);
  EXPECT_LE(s.size, 3);
}

std::vector<Vec3> CoreVertices(const Shape& shape) {
  std::vector<Vec3> v;
  if (const auto* p = std::get_if<Point>(&shape)) v = {p->position};
  if (const auto* s = std::get_if<Segment>(&shape)) v = {s->a, s->b};
  if (const auto* s = std::get_if<Sphere>(&shape)) v = {s->center};
  if (const auto* c = std::get_if<Capsule>(&shape)) v = {c->a, c->b};
  if (const auto* t = std::get_if<Triangle>(&shape)) v = {t->a, t->b, t->c};
  if (const auto* h = std::get_if<ConvexHull>(&shape)) v.assign(h->vertices.begin(), h->vertices.end());
  if (const auto* b = std::get_if<Aabb>(&shape)) {
    for (int c = 0; c < 8; ++c) {
      v.push_back({c & 1 ? b->max.x : b->min.x, c & 2 ? b->max.y : b->min.y, c & 4 ? b->max.z : b->min.z});
    }
  }
  if (const auto* o = std::get_if<Obb>(&shape)) {
    for (int c = 0; c < 8; ++c) {
      Vec3 p = o->center;
      for (int i = 0; i < 3; ++i) p += o->rotation.col[i] * (o->half_extents[i] * ((c >> i) & 1 ? 1 : -1));
      v.push_back(p);
    }
  }
  return v;
}

// Random polytope pairs: GJK's distance is an upper bound (it is realized by
// its two points) and the plane normal to pB - pA gives a lower bound by
// brute force over all vertices; they must agree.
TEST(GjkTest, DistanceMeetsBruteForceLowerBound) {
  testing::ShapeFactory f(21, 1.5);
  const ShapeKind kinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,   ShapeKind::kSphere,
                             ShapeKind::kCapsule,  ShapeKind::kAabb,      ShapeKind::kObb,
                             ShapeKind::kTriangle, ShapeKind::kConvexHull};
  int apart = 0;
  for (int i = 0; i < 20000; ++i) {
    const Shape a = f.Make(kinds[i % 8]);
    const Shape b = f.Make(kinds[(i / 8) % 8]);
    const ConvexCore ca(a, Vec3{});
    const ConvexCore cb(b, Vec3{});
    const GjkResult r = GjkDistance(ca, cb);
    ASSERT_EQ(r.status, QueryStatus::kOk);
    if (r.overlap) continue;
    ++apart;
    EXPECT_NEAR(Length(r.point_b - r.point_a), r.distance, 1e-15 * (1 + r.distance));
    const Vec3 n = (r.point_b - r.point_a) / r.distance;
    double max_a = -kInfinity, min_b = kInfinity;
    for (const Vec3& p : CoreVertices(a)) max_a = std::max(max_a, Dot(n, p));
    for (const Vec3& p : CoreVertices(b)) min_b = std::min(min_b, Dot(n, p));
    // The certificate's own error: n carries the points' ~1e-16 round-off
    // divided by the distance, times the shapes' size (~1). Case 13580
    // (d = 1.3e-4) is exact to 1e-17 by rational arithmetic, its certificate
    // off by 1.8e-12.
    EXPECT_NEAR(min_b - max_a, r.distance, 1e-12 * (1 + r.distance) + 1e-15 / r.distance) << i;
  }
  EXPECT_GT(apart, 10000);
}

TEST(GjkTest, OverlapYieldsACommonPoint) {
  const Aabb box{{0, 0, 0}, {2, 2, 2}};
  const Triangle tri{{1, 1, -1}, {1, 1, 3}, {5, 1, 1}};
  const GjkResult r = GjkDistance(ConvexCore(box, {}), ConvexCore(tri, {}));
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_TRUE(r.overlap);
  EXPECT_EQ(r.distance, 0.0);
  ExpectVecNear(r.point_a, r.point_b, 1e-14);
  // The common point is in the box and in the triangle's plane y = 1.
  EXPECT_NEAR(r.point_a.y, 1.0, 1e-14);
  for (int i = 0; i < 3; ++i) {
    EXPECT_GE(r.point_a[i], -1e-14);
    EXPECT_LE(r.point_a[i], 2 + 1e-14);
  }
}

TEST(GjkTest, StopsEarlyBeyondTheBound) {
  const GjkResult r =
      GjkDistance(ConvexCore(Sphere{{0, 0, 0}, 1}, {}), ConvexCore(Aabb{{5, 5, 5}, {6, 6, 6}}, {}),
                  /*stop_beyond=*/1.0);
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_FALSE(r.overlap);
  EXPECT_GT(r.distance, 1.0);
  EXPECT_LE(r.distance, std::sqrt(75.0));
}

TEST(GjkTest, CoresIgnoreRadii) {
  const GjkResult r =
      GjkDistance(ConvexCore(Sphere{{0, 0, 0}, 1}, {}), ConvexCore(Capsule{{3, -1, 0}, {3, 1, 0}, 0.5}, {}));
  EXPECT_DOUBLE_EQ(r.distance, 3.0);
  ExpectVecNear(r.point_b, {3, 0, 0}, 1e-15);
}

}  // namespace
}  // namespace collide::internal
