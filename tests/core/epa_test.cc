// EPA penetration depth on random overlapping polytope pairs against a brute
// force over every candidate direction, and its degenerate (no-volume) cases.
#include "query/convex/epa.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "query/convex/gjk.h"
#include "query/registry.h"
#include "support/random_shapes.h"
#include "support/shape_ops.h"

namespace collide::internal {
namespace {

std::vector<Vec3> Vertices(const Shape& shape) {
  std::vector<Vec3> v;
  if (const auto* p = std::get_if<Point>(&shape)) v = {p->position};
  if (const auto* s = std::get_if<Segment>(&shape)) v = {s->a, s->b};
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

// h(u) = max_a u.a - min_b u.b, the support function of A - B.
double Overlap(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const Vec3& u) {
  double max_a = -kInfinity, min_b = kInfinity;
  for (const Vec3& p : a) max_a = std::max(max_a, Dot(u, p));
  for (const Vec3& p : b) min_b = std::min(min_b, Dot(u, p));
  return max_a - min_b;
}

// Penetration depth = min over unit u of h(u); the minimum is at a face
// normal of A - B, which is the cross product of two edges of A, two of B,
// or one of each: every cross product of vertex differences covers them.
double BruteForceDepth(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  std::vector<Vec3> ea, eb;
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = i + 1; j < a.size(); ++j) ea.push_back(a[j] - a[i]);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    for (size_t j = i + 1; j < b.size(); ++j) eb.push_back(b[j] - b[i]);
  }
  double depth = kInfinity;
  const auto consider = [&](const Vec3& c) {
    if (LengthSquared(c) < 1e-20) return;
    const Vec3 u = c / Length(c);
    depth = std::min({depth, Overlap(a, b, u), Overlap(a, b, -u)});
  };
  for (const auto* e : {&ea, &eb}) {
    for (size_t i = 0; i < e->size(); ++i) {
      for (size_t j = i + 1; j < e->size(); ++j) consider(Cross((*e)[i], (*e)[j]));
    }
  }
  for (const Vec3& x : ea) {
    for (const Vec3& y : eb) consider(Cross(x, y));
  }
  return depth;
}

TEST(EpaTest, DepthMatchesBruteForceOnRandomPolytopes) {
  testing::ShapeFactory f(31, 0.6);
  const ShapeKind kinds[] = {ShapeKind::kSegment, ShapeKind::kAabb, ShapeKind::kObb, ShapeKind::kTriangle,
                             ShapeKind::kConvexHull};
  int deep = 0;
  for (int i = 0; i < 1500; ++i) {
    const Shape a = f.Make(kinds[i % 5]);
    const Shape b = f.Make(kinds[(i / 5) % 5]);
    const std::vector<Vec3> va = Vertices(a), vb = Vertices(b);
    const double depth = BruteForceDepth(va, vb);
    const PairResult r = QueryConvexFallback(QueryLevel::kContact, a, b);
    ASSERT_EQ(r.status, QueryStatus::kOk) << i;
    if (depth < 0) {
      EXPECT_FALSE(r.hit) << i;
      continue;
    }
    EXPECT_TRUE(r.hit) << i;
    EXPECT_NEAR(-r.distance, depth, 1e-10) << i;
    // The reported normal realizes the depth.
    EXPECT_NEAR(Overlap(va, vb, r.normal), depth, 1e-10) << i;
    deep += depth > 1e-3;
  }
  EXPECT_GT(deep, 300);
}

// Distance from p to shape s, by the fallback.
double DistanceTo(const Shape& s, const Vec3& p) {
  return QueryConvexFallback(QueryLevel::kDistance, Point{p}, s).distance;
}

// Regression: the face of A - B nearest the origin was one of several
// coplanar triangles, not the one holding the origin's projection, and the
// witness points (negative weights) left the boxes by 2.8e-4.
TEST(EpaTest, WitnessPointsStayOnTheirShapesWhenFacesAreSplit) {
  const Aabb a{{-0.011340391139954442, -0.73310133239918429, -0.48090152893410432},
               {0.64590925236048025, -0.28873740321352848, 1.12590218908784}};
  const Aabb b{{-0.41383037192598615, -0.9111047649757632, -1.239058333663495},
               {1.2829598956330261, -0.005631359519495116, 0.44443212312285146}};
  const PairResult r = QueryConvexFallback(QueryLevel::kContact, a, b);
  EXPECT_NEAR(r.distance, -(a.max.y - b.min.y), 1e-15);
  EXPECT_LE(DistanceTo(a, r.point_a), 1e-15);
  EXPECT_LE(DistanceTo(b, r.point_b), 1e-15);

  testing::ShapeFactory f(77, 0.7);
  int hits = 0;
  for (int i = 0; i < 5000; ++i) {
    const Shape sa = f.Make(static_cast<ShapeKind>(i % 8));
    const Shape sb = f.Make(static_cast<ShapeKind>((i / 8) % 8));
    const PairResult c = QueryConvexFallback(QueryLevel::kContact, sa, sb);
    if (!c.hit) continue;
    ++hits;
    EXPECT_LE(DistanceTo(sa, c.point_a), 1e-12) << i;
    EXPECT_LE(DistanceTo(sb, c.point_b), 1e-12) << i;
  }
  EXPECT_GT(hits, 1000);
}

TEST(EpaTest, TouchingPolytopesHaveZeroDepth) {
  testing::ShapeOps ops;
  // A tetrahedron standing on the top face of a box, vertex down.
  const Aabb box{{-1, -1, -1}, {1, 1, 0}};
  const ConvexHull tet = ops.Hull({{0.2, 0.1, 0}, {1, 1, 2}, {-1, 1, 2}, {0, -1, 2}});
  const PairResult r = QueryConvexFallback(QueryLevel::kContact, box, tet);
  EXPECT_EQ(r.status, QueryStatus::kOk);
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.distance, 0.0, 1e-15);
  EXPECT_NEAR(r.point_a.z, 0.0, 1e-15);
}

TEST(EpaTest, NoVolumeDifferencesReportTouching) {
  // Point on a segment: the difference is a segment.
  EpaResult e;
  {
    const Point p{{0.5, 0, 0}};
    const Segment s{{0, 0, 0}, {1, 0, 0}};
    const ConvexCore ca(p, {}), cb(s, {});
    const GjkResult g = GjkDistance(ca, cb);
    ASSERT_TRUE(g.overlap);
    e = EpaPenetration(ca, cb, g);
    EXPECT_EQ(e.status, QueryStatus::kOk);
    EXPECT_EQ(e.depth, 0.0);
    EXPECT_NEAR(Dot(e.normal, Vec3{1, 0, 0}), 0.0, 1e-15);
    EXPECT_NEAR(Length(e.normal), 1.0, 1e-15);
  }
  {
    // Coincident points: the difference is a point; +x by convention.
    const ConvexCore ca(Point{{1, 2, 3}}, {}), cb(Point{{1, 2, 3}}, {});
    e = EpaPenetration(ca, cb, GjkDistance(ca, cb));
    EXPECT_EQ(e.depth, 0.0);
    EXPECT_EQ(e.normal, (Vec3{1, 0, 0}));
    EXPECT_EQ(e.point_a, (Vec3{1, 2, 3}));
  }
  {
    // Triangle in a zero-thickness box (a rectangle), coplanar.
    const ConvexCore ca(Aabb{{0, 0, 2}, {4, 4, 2}}, {}), cb(Triangle{{1, 1, 2}, {3, 1, 2}, {1, 3, 2}}, {});
    e = EpaPenetration(ca, cb, GjkDistance(ca, cb));
    EXPECT_EQ(e.depth, 0.0);
    EXPECT_EQ(e.normal, (Vec3{0, 0, 1}));
    EXPECT_NEAR(e.point_a.z, 2.0, 1e-15);
  }
}

TEST(EpaTest, DeterministicAcrossCalls) {
  testing::ShapeFactory f(33, 0.5);
  for (int i = 0; i < 200; ++i) {
    const Shape a = f.Make(ShapeKind::kConvexHull);
    const Shape b = f.Make(ShapeKind::kObb);
    EXPECT_EQ(QueryConvexFallback(QueryLevel::kContact, a, b),
              QueryConvexFallback(QueryLevel::kContact, a, b));
  }
}

}  // namespace
}  // namespace collide::internal
