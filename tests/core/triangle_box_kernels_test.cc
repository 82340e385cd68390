// Analytic cases of the triangle-box kernels (kernels_box.h: triangle_box_sat
// and closest_triangle_box), each in both argument orders through Query:
// a triangle over a face, tilted by 1e-9 rad over it or 4e-11 into it
// (issue 14, class 2), edge against edge, a needle piercing the triangle,
// a triangle inside the box and degenerate triangles. The seeded sets are
// in invariants_test, fallback_vs_kernels_test and accuracy_test.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "collide/query.h"

namespace collide {
namespace {

// Query(level, box, triangle), checked against its mirror Query(level,
// triangle, box), which must be its exact flip.
PairResult BoxFirst(QueryLevel level, const Shape& box, const Triangle& t) {
  const PairResult r = Query(level, box, t);
  EXPECT_EQ(Query(level, t, box), r.Flipped()) << QueryLevelName(level);
  return r;
}

const Aabb kUnit{{0, 0, 0}, {1, 1, 1}};

TEST(TriangleBoxTest, ParallelOverAFaceIsApartByTheGap) {
  const Triangle t{{0.2, 0.2, 1.5}, {0.9, 0.3, 1.5}, {0.4, 0.8, 1.5}};
  const Obb turned = Obb::FromQuat({0.5, 0.5, 0.5}, {std::cos(0.3), 0, 0, std::sin(0.3)}, {0.5, 0.5, 0.5});
  for (const Shape& box : {Shape{kUnit}, Shape{Obb{{0.5, 0.5, 0.5}, Mat3{}, {0.5, 0.5, 0.5}}}}) {
    EXPECT_FALSE(BoxFirst(QueryLevel::kIntersect, box, t).hit);
    for (QueryLevel level : {QueryLevel::kDistance, QueryLevel::kContact}) {
      const PairResult r = BoxFirst(level, box, t);
      EXPECT_FALSE(r.hit);
      EXPECT_NEAR(r.distance, 0.5, 1e-15);
      EXPECT_NEAR(r.normal.z, 1.0, 1e-15);
      EXPECT_NEAR(r.point_a.z, 1.0, 1e-15);
      EXPECT_NEAR(r.point_b.z, 1.5, 1e-15);
    }
  }
  // Turned about z, the box still has its top face under the triangle.
  EXPECT_NEAR(BoxFirst(QueryLevel::kContact, turned, t).distance, 0.5, 1e-15);
}

TEST(TriangleBoxTest, TiltedByANanoradianOverAFaceGetsItsGap) {
  // The lowest vertex 1e-9 over the top face; the others higher by 1e-9 rad
  // times their distance: the distance is the lowest vertex's height, which
  // GJK/EPA missed by up to half.
  const double z0 = 1 + 1e-9;
  const Triangle t{{0.3, 0.3, z0}, {0.9, 0.3, z0 + 0.6e-9}, {0.3, 0.9, z0 + 0.6e-9}};
  const double gap = z0 - 1;  // exact: both are doubles within a factor 2.
  for (QueryLevel level : {QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult r = BoxFirst(level, kUnit, t);
    EXPECT_FALSE(r.hit);
    EXPECT_NEAR(r.distance, gap, 1e-16 + 1e-9 * gap);
    EXPECT_EQ(r.point_b, t.a);
    EXPECT_EQ(r.point_a, (Vec3{0.3, 0.3, 1.0}));
  }
}

TEST(TriangleBoxTest, FourHundredthsOfANanometreIntoAFaceIsAHit) {
  const double z0 = 1 - 4e-11;
  const Triangle t{{0.3, 0.3, z0}, {0.9, 0.3, z0 + 0.6e-9}, {0.3, 0.9, z0 + 0.6e-9}};
  EXPECT_TRUE(BoxFirst(QueryLevel::kIntersect, kUnit, t).hit);
  EXPECT_TRUE(BoxFirst(QueryLevel::kDistance, kUnit, t).hit);
  const PairResult c = BoxFirst(QueryLevel::kContact, kUnit, t);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, z0 - 1, 1e-16);
  EXPECT_EQ(c.normal, (Vec3{0, 0, 1}));
  // The triangle's deepest vertex and its foot on the face.
  EXPECT_EQ(c.point_b, t.a);
  EXPECT_EQ(c.point_a, (Vec3{0.3, 0.3, 1.0}));
}

TEST(TriangleBoxTest, EdgeOverAnEdgeIsApartAlongTheirCommonPerpendicular) {
  // The triangle's edge ab crosses over the box's edge x = z = 1 at (1, 0.5,
  // 1) + 0.1 (1, 0, 1): distance 0.1 sqrt 2, along (1, 0, 1) / sqrt 2.
  const double d = 0.1;
  const Triangle t{{1.5 + d, 0.5, 0.5 + d}, {0.5 + d, 0.5, 1.5 + d}, {2, 2, 2}};
  for (QueryLevel level : {QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult r = BoxFirst(level, kUnit, t);
    EXPECT_FALSE(r.hit);
    EXPECT_NEAR(r.distance, d * std::numbers::sqrt2, 1e-15);
    EXPECT_NEAR(r.point_a.x, 1.0, 1e-15);
    EXPECT_NEAR(r.point_a.y, 0.5, 1e-15);
    EXPECT_NEAR(r.normal.x, std::numbers::sqrt2 / 2, 1e-15);
    EXPECT_NEAR(r.normal.z, std::numbers::sqrt2 / 2, 1e-15);
  }
  // Moved down by 2d along the perpendicular: edge into edge by d sqrt 2.
  const Triangle in{{1.5 - d, 0.5, 0.5 - d}, {0.5 - d, 0.5, 1.5 - d}, {2, 2, 2}};
  const PairResult c = BoxFirst(QueryLevel::kContact, kUnit, in);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, -d * std::numbers::sqrt2, 1e-15);
  EXPECT_NEAR(c.normal.x, std::numbers::sqrt2 / 2, 1e-15);
  EXPECT_NEAR(c.normal.z, std::numbers::sqrt2 / 2, 1e-15);
}

TEST(TriangleBoxTest, NeedlePiercingTheTriangleOverlaps) {
  // Every triangle edge and box vertex is far from the other shape: only a
  // box edge crossing the triangle shows the overlap.
  const Triangle t{{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}};
  for (const Aabb& needle : {Aabb{{-0.01, -0.01, -1}, {0.01, 0.01, 1}}, Aabb{{0, 0, -1}, {0, 0, 1}}}) {
    EXPECT_TRUE(BoxFirst(QueryLevel::kIntersect, needle, t).hit);
    const PairResult d = BoxFirst(QueryLevel::kDistance, needle, t);
    EXPECT_TRUE(d.hit);
    EXPECT_NEAR(d.point_a.z, 0.0, 1e-15);
    EXPECT_LE(std::fabs(d.point_a.x), needle.max.x + 1e-15);
    EXPECT_LE(std::fabs(d.point_a.y), needle.max.y + 1e-15);
    const PairResult c = BoxFirst(QueryLevel::kContact, needle, t);
    EXPECT_TRUE(c.hit);
    EXPECT_DOUBLE_EQ(c.distance, -1.0);  // out along +-z, either way.
    EXPECT_DOUBLE_EQ(std::fabs(c.normal.z), 1.0);
  }
}

TEST(TriangleBoxTest, TriangleInsideTheBoxLeavesThroughTheNearestFace) {
  const Triangle t{{0.2, 0.3, 0.9}, {0.7, 0.3, 0.9}, {0.5, 0.6, 0.8}};
  EXPECT_TRUE(BoxFirst(QueryLevel::kIntersect, kUnit, t).hit);
  const PairResult d = BoxFirst(QueryLevel::kDistance, kUnit, t);
  EXPECT_TRUE(d.hit);
  EXPECT_EQ(d.point_a, d.point_b);
  const PairResult c = BoxFirst(QueryLevel::kContact, kUnit, t);
  // Moving the triangle (B) up by 1 - 0.8 = 0.2 takes it out through the top.
  EXPECT_NEAR(c.distance, -(1 - 0.8), 1e-15);
  EXPECT_EQ(c.normal, (Vec3{0, 0, 1}));
}

TEST(TriangleBoxTest, DegenerateTrianglesAreSegmentsAndPoints) {
  const Triangle segment{{2, 0.5, 0.5}, {3, 0.5, 0.5}, {2.5, 0.5, 0.5}};
  const Triangle point{{0.5, 0.5, 3}, {0.5, 0.5, 3}, {0.5, 0.5, 3}};
  EXPECT_NEAR(BoxFirst(QueryLevel::kContact, kUnit, segment).distance, 1.0, 1e-15);
  EXPECT_NEAR(BoxFirst(QueryLevel::kDistance, kUnit, point).distance, 2.0, 1e-15);
  const Triangle crossing{{-1, 0.5, 0.5}, {2, 0.5, 0.5}, {0.5, 0.5, 0.5}};
  EXPECT_TRUE(BoxFirst(QueryLevel::kIntersect, kUnit, crossing).hit);
  EXPECT_NEAR(BoxFirst(QueryLevel::kContact, kUnit, crossing).distance, -0.5, 1e-15);
}

}  // namespace
}  // namespace collide
