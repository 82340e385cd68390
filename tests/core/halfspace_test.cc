// Every convex kind against a halfspace: the signed distance of the deepest
// point, orientation (normal from the shape to the halfspace), all levels,
// and the mirrored order through Query().
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "collide/query.h"
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "support/random_shapes.h"
#include "support/shape_ops.h"

namespace collide {
namespace {

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// Smallest dot(n, x) - offset over the shape, by brute force over its
// vertices (or analytically for the round kinds).
double BruteForceSignedDistance(const Shape& s, const Halfspace& h) {
  const Vec3 n = h.normal / Length(h.normal);
  const double offset = h.offset / Length(h.normal);
  std::vector<Vec3> v;
  double r = 0;
  if (const auto* p = std::get_if<Point>(&s)) v = {p->position};
  if (const auto* x = std::get_if<Segment>(&s)) v = {x->a, x->b};
  if (const auto* x = std::get_if<Sphere>(&s)) v = {x->center}, r = x->radius;
  if (const auto* x = std::get_if<Capsule>(&s)) v = {x->a, x->b}, r = x->radius;
  if (const auto* x = std::get_if<Triangle>(&s)) v = {x->a, x->b, x->c};
  if (const auto* x = std::get_if<ConvexHull>(&s)) v.assign(x->vertices.begin(), x->vertices.end());
  if (const auto* b = std::get_if<Aabb>(&s)) {
    for (int c = 0; c < 8; ++c) {
      v.push_back({c & 1 ? b->max.x : b->min.x, c & 2 ? b->max.y : b->min.y, c & 4 ? b->max.z : b->min.z});
    }
  }
  if (const auto* o = std::get_if<Obb>(&s)) {
    for (int c = 0; c < 8; ++c) {
      Vec3 p = o->center;
      for (int i = 0; i < 3; ++i) p += o->rotation.col[i] * (o->half_extents[i] * ((c >> i) & 1 ? 1 : -1));
      v.push_back(p);
    }
  }
  double best = kInfinity;
  for (const Vec3& p : v) best = std::min(best, Dot(n, p) - offset);
  return best - r;
}

TEST(HalfspaceTest, SphereAboveTouchingAndBelow) {
  const Halfspace floor{{0, 0, 1}, 0};  // z <= 0.
  PairResult r = Query(QueryLevel::kContact, Sphere{{1, 2, 3}, 1}, floor);
  EXPECT_FALSE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, 2.0);
  EXPECT_EQ(r.point_a, (Vec3{1, 2, 2}));
  EXPECT_EQ(r.point_b, (Vec3{1, 2, 0}));
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
  r = Query(QueryLevel::kContact, Sphere{{1, 2, 1}, 1}, floor);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_FALSE(std::signbit(r.distance));
  r = Query(QueryLevel::kContact, Sphere{{1, 2, 0.25}, 1}, floor);
  EXPECT_TRUE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, -0.75);
  EXPECT_EQ(r.point_a, (Vec3{1, 2, -0.75}));
  EXPECT_EQ(r.point_b, (Vec3{1, 2, 0}));
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
  // Distance level when overlapping: one point in both.
  r = Query(QueryLevel::kDistance, Sphere{{1, 2, 0.25}, 1}, floor);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.distance, 0.0);
  EXPECT_EQ(r.point_a, r.point_b);
  EXPECT_LE(r.point_a.z, 0.0);
  EXPECT_EQ(r.normal, (Vec3{}));
}

TEST(HalfspaceTest, TiltedBoxDeepestCorner) {
  // A box in the quadrant x, y >= 1 against x + y <= 0: its nearest edge is
  // at x = y = 1, 2 / sqrt(2) from the plane.
  const double s = std::sqrt(0.5);
  const Halfspace h{{s, s, 0}, 0};
  const Aabb box{{1, 1, -1}, {2, 2, 1}};
  const PairResult r = Query(QueryLevel::kContact, box, h);
  EXPECT_NEAR(r.distance, 2 * s, 1e-15);
  // The corner is tied along z: the support takes the positive extent.
  ExpectVecNear(r.point_a, {1, 1, 1}, 1e-15);
  ExpectVecNear(r.point_b, {0, 0, 1}, 1e-15);
  ExpectVecNear(r.normal, {-s, -s, 0}, 1e-15);
}

TEST(HalfspaceTest, NearUnitNormalGivesWorldDistances) {
  const Halfspace h{{0, 0, 1 + 1e-7}, 2 * (1 + 1e-7)};  // z <= 2.
  const PairResult r = Query(QueryLevel::kContact, Point{{0, 0, 5}}, h);
  EXPECT_NEAR(r.distance, 3.0, 1e-15);
  EXPECT_EQ(r.normal, (Vec3{0, 0, -1}));
}

TEST(HalfspaceTest, HalfspacePairIsUnsupported) {
  const Halfspace h{{0, 0, 1}, 0};
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    EXPECT_EQ(Query(level, h, h).status, QueryStatus::kUnsupported);
  }
  EXPECT_FALSE(IsSupported(ShapeKind::kHalfspace, ShapeKind::kHalfspace));
}

TEST(HalfspaceTest, RandomShapesMatchBruteForceAtEveryLevelAndOrder) {
  testing::ShapeFactory f(41, 1.0);
  testing::ShapeOps ops;
  int hits = 0, total = 0;
  for (int k = 0; k < 8; ++k) {
    const ShapeKind kind = static_cast<ShapeKind>(k);
    for (int i = 0; i < 300; ++i) {
      SCOPED_TRACE(std::string(ShapeKindName(kind)) + " #" + std::to_string(i));
      const Shape s = f.Make(kind);
      const Halfspace h = std::get<Halfspace>(f.Make(ShapeKind::kHalfspace));
      const double expected = BruteForceSignedDistance(s, h);
      const PairResult c = Query(QueryLevel::kContact, s, h);
      const PairResult d = Query(QueryLevel::kDistance, s, h);
      const PairResult x = Query(QueryLevel::kIntersect, s, h);
      EXPECT_NEAR(c.distance, expected, 1e-14);
      EXPECT_EQ(c.hit, c.distance <= 0);
      EXPECT_EQ(d.hit, c.hit);
      EXPECT_EQ(x.hit, c.hit);
      ExpectVecNear(c.normal, -h.normal, 1e-15);
      ExpectVecNear(c.point_b - c.point_a, c.normal * c.distance, 1e-14);
      // point_b is on the plane.
      EXPECT_NEAR(Dot(h.normal, c.point_b), h.offset, 1e-14);
      // The mirrored order is the exact flip, and matches the fallback.
      EXPECT_EQ(Query(QueryLevel::kContact, h, s), c.Flipped());
      EXPECT_EQ(internal::QueryConvexFallback(QueryLevel::kContact, s, h), c);
      if (c.hit) {
        ++hits;
        EXPECT_EQ(d.distance, 0.0);
        EXPECT_LE(Dot(h.normal, d.point_a), h.offset + 1e-14);
        if (c.distance < -1e-9) {
          const Shape moved = ops.Translated(h, c.normal * (-c.distance * 1.01));
          EXPECT_FALSE(Query(QueryLevel::kIntersect, s, moved).hit);
          const Shape less = ops.Translated(h, c.normal * (-c.distance * 0.99));
          EXPECT_TRUE(Query(QueryLevel::kIntersect, s, less).hit);
        }
      } else {
        EXPECT_EQ(d, c);
      }
      ++total;
    }
  }
  EXPECT_GT(hits, total / 4);
  EXPECT_LT(hits, total * 3 / 4);
}

}  // namespace
}  // namespace collide
