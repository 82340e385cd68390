// Closest-point building blocks: analytic cases, degenerate inputs, extreme
// scales, and seeded random checks against a brute-force reference in long
// double.
#include "query/closest/closest.h"
#include "query/closest/closest_segments.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/segment_reference.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

TEST(ClosestPointOnSegmentTest, ProjectsAndClamps) {
  const Vec3 a{1, 0, 0}, b{3, 0, 0};
  EXPECT_EQ(ClosestPointOnSegment({2, 5, 0}, a, b).point, (Vec3{2, 0, 0}));
  EXPECT_EQ(ClosestPointOnSegment({2, 5, 0}, a, b).t, 0.5);
  EXPECT_EQ(ClosestPointOnSegment({-4, 1, 0}, a, b).point, a);
  EXPECT_EQ(ClosestPointOnSegment({-4, 1, 0}, a, b).t, 0.0);
  EXPECT_EQ(ClosestPointOnSegment({9, -1, 2}, a, b).point, b);
  EXPECT_EQ(ClosestPointOnSegment({9, -1, 2}, a, b).t, 1.0);
  EXPECT_EQ(ClosestPointOnSegment({3, 0, 0}, a, b).t, 1.0);  // exactly at an endpoint.
}

TEST(ClosestPointOnSegmentTest, ZeroLengthSegmentIsItsPoint) {
  const PointOnSegment q = ClosestPointOnSegment({5, 5, 5}, {1, 2, 3}, {1, 2, 3});
  EXPECT_EQ(q.t, 0.0);
  EXPECT_EQ(q.point, (Vec3{1, 2, 3}));
}

TEST(ClosestPointOnLineTest, ProjectsWithoutClamping) {
  const Line line{{1, 1, 0}, {0, 2, 0}};  // non-unit direction.
  const PointOnLine q = ClosestPointOnLine({4, 7, -2}, line);
  EXPECT_DOUBLE_EQ(q.t, 3.0);
  EXPECT_EQ(q.point, (Vec3{1, 7, 0}));
  EXPECT_DOUBLE_EQ(ClosestPointOnLine({0, -9, 0}, line).t, -5.0);
}

TEST(ClosestPointsLinesTest, SkewLinesMeetTheCommonPerpendicular) {
  // x axis, and the line through (5, 0, 2) along y.
  const LinePoints cp = ClosestPointsLines({{0, 0, 0}, {2, 0, 0}}, {{5, 3, 2}, {0, 1, 0}});
  EXPECT_FALSE(cp.parallel);
  EXPECT_DOUBLE_EQ(cp.s, 2.5);
  EXPECT_DOUBLE_EQ(cp.t, -3.0);
  ExpectVecNear(cp.point1, {5, 0, 0}, 1e-15);
  ExpectVecNear(cp.point2, {5, 0, 2}, 1e-15);
}

TEST(ClosestPointsLinesTest, IntersectingLinesShareThePoint) {
  const LinePoints cp = ClosestPointsLines({{-1, -1, 0}, {1, 1, 0}}, {{4, 0, 0}, {-1, 1, 0}});
  ExpectVecNear(cp.point1, {2, 2, 0}, 1e-14);
  ExpectVecNear(cp.point2, {2, 2, 0}, 1e-14);
}

TEST(ClosestPointsLinesTest, ParallelLinesTakeTheFirstLinesPoint) {
  const LinePoints cp = ClosestPointsLines({{1, 0, 0}, {1, 0, 0}}, {{7, 3, 0}, {-2, 0, 0}});
  EXPECT_TRUE(cp.parallel);
  EXPECT_EQ(cp.s, 0.0);
  EXPECT_EQ(cp.point1, (Vec3{1, 0, 0}));
  EXPECT_EQ(cp.point2, (Vec3{1, 3, 0}));
}

TEST(ClosestPointsSegmentsTest, SkewInteriorFeet) {
  const SegmentPoints cp = ClosestPointsSegments({-1, 0, 0}, {1, 0, 0}, {0.5, -1, 1}, {0.5, 1, 1});
  EXPECT_DOUBLE_EQ(cp.s, 0.75);
  EXPECT_DOUBLE_EQ(cp.t, 0.5);
  ExpectVecNear(cp.point1, {0.5, 0, 0}, 1e-15);
  ExpectVecNear(cp.point2, {0.5, 0, 1}, 1e-15);
}

TEST(ClosestPointsSegmentsTest, CrossingSegmentsMeet) {
  const SegmentPoints cp = ClosestPointsSegments({-1, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {1, -1, 0});
  EXPECT_EQ(cp.point1, (Vec3{0, 0, 0}));
  EXPECT_EQ(cp.point2, (Vec3{0, 0, 0}));
}

TEST(ClosestPointsSegmentsTest, FootOutsideClampsAndReprojects) {
  // The lines meet at (5, 0, 0), beyond segment 1's end (1, 0, 0): clamp s
  // to 1, project onto segment 2 (t below 0), clamp t, reproject s.
  const SegmentPoints cp = ClosestPointsSegments({0, 0, 0}, {1, 0, 0}, {5, 2, 0}, {5, 4, 0});
  EXPECT_EQ(cp.s, 1.0);
  EXPECT_EQ(cp.t, 0.0);
  EXPECT_EQ(cp.point1, (Vec3{1, 0, 0}));
  EXPECT_EQ(cp.point2, (Vec3{5, 2, 0}));
  // Here clamping s and projecting lands inside segment 2, which is then final.
  const SegmentPoints cp2 = ClosestPointsSegments({0, 0, 0}, {1, 0, 0}, {3, -1, 1}, {3, 1, 1});
  EXPECT_EQ(cp2.s, 1.0);
  EXPECT_DOUBLE_EQ(cp2.t, 0.5);
  // The reprojection lands inside segment 1: T shape.
  const SegmentPoints cp3 = ClosestPointsSegments({0, 0, 0}, {4, 0, 0}, {1, 2, 0}, {1, 5, 0});
  EXPECT_EQ(cp3.t, 0.0);
  EXPECT_DOUBLE_EQ(cp3.s, 0.25);
}

TEST(ClosestPointsSegmentsTest, ParallelOverlapTakesTheMidpointOfTheOverlap) {
  // Segment 2 projects onto [2, 5] of segment 1's [0, 4] (in x): overlap
  // [2, 4], midpoint x = 3.
  const SegmentPoints cp = ClosestPointsSegments({0, 0, 0}, {4, 0, 0}, {5, 1, 0}, {2, 1, 0});
  EXPECT_DOUBLE_EQ(cp.s, 0.75);
  ExpectVecNear(cp.point1, {3, 0, 0}, 1e-15);
  ExpectVecNear(cp.point2, {3, 1, 0}, 1e-15);
  // Segment 2 contains segment 1's projection: the midpoint of segment 1.
  const SegmentPoints inside = ClosestPointsSegments({0, 0, 0}, {2, 0, 0}, {-5, 0, 3}, {5, 0, 3});
  ExpectVecNear(inside.point1, {1, 0, 0}, 1e-15);
  ExpectVecNear(inside.point2, {1, 0, 3}, 1e-15);
}

TEST(ClosestPointsSegmentsTest, CollinearOverlapTouchesAtTheMidpoint) {
  const SegmentPoints cp = ClosestPointsSegments({0, 0, 0}, {0, 0, 4}, {0, 0, 1}, {0, 0, 9});
  EXPECT_DOUBLE_EQ(cp.s, 0.625);  // overlap z in [1, 4].
  EXPECT_EQ(cp.point1, cp.point2);
  EXPECT_DOUBLE_EQ(cp.point1.z, 2.5);
}

TEST(ClosestPointsSegmentsTest, ParallelDisjointTakesFacingEnds) {
  const SegmentPoints cp = ClosestPointsSegments({0, 0, 0}, {1, 0, 0}, {3, 1, 0}, {5, 1, 0});
  EXPECT_EQ(cp.point1, (Vec3{1, 0, 0}));
  EXPECT_EQ(cp.point2, (Vec3{3, 1, 0}));
  const SegmentPoints behind = ClosestPointsSegments({0, 0, 0}, {1, 0, 0}, {-2, 0, 0}, {-3, 0, 0});
  EXPECT_EQ(behind.point1, (Vec3{0, 0, 0}));
  EXPECT_EQ(behind.point2, (Vec3{-2, 0, 0}));
}

TEST(ClosestPointsSegmentsTest, ZeroLengthSegments) {
  const SegmentPoints both = ClosestPointsSegments({1, 1, 1}, {1, 1, 1}, {2, 3, 4}, {2, 3, 4});
  EXPECT_EQ(both.point1, (Vec3{1, 1, 1}));
  EXPECT_EQ(both.point2, (Vec3{2, 3, 4}));
  const SegmentPoints first = ClosestPointsSegments({1, 5, 0}, {1, 5, 0}, {0, 0, 0}, {4, 0, 0});
  EXPECT_EQ(first.s, 0.0);
  EXPECT_DOUBLE_EQ(first.t, 0.25);
  EXPECT_EQ(first.point2, (Vec3{1, 0, 0}));
  const SegmentPoints second = ClosestPointsSegments({0, 0, 0}, {4, 0, 0}, {9, 5, 0}, {9, 5, 0});
  EXPECT_EQ(second.t, 0.0);
  EXPECT_EQ(second.s, 1.0);
  EXPECT_EQ(second.point1, (Vec3{4, 0, 0}));
}

// The same configuration scaled to 1e9 and 1e-9 (and offset far from the
// origin at the large scale) keeps its relative accuracy.
TEST(ClosestPointsSegmentsTest, HugeAndTinyScales) {
  for (const double scale : {1e9, 1e-9}) {
    const Vec3 o = scale > 1 ? Vec3{3e11, -2e11, 1e11} : Vec3{};
    const SegmentPoints cp = ClosestPointsSegments(o + Vec3{-1, 0, 0} * scale, o + Vec3{1, 0, 0} * scale,
                                                   o + Vec3{0.5, -1, 1} * scale, o + Vec3{0.5, 1, 1} * scale);
    EXPECT_NEAR(Length(cp.point2 - cp.point1), scale, 1e-12 * (scale + Length(o)));
    EXPECT_NEAR(cp.s, 0.75, 1e-12);
    EXPECT_NEAR(cp.t, 0.5, 1e-12);
  }
}

// Nearly parallel segments, where a*e - b*b cancels: the distance stays
// accurate (the reference is long double and exact to ~1e-19 here).
TEST(ClosestPointsSegmentsTest, NearlyParallelKeepsAccurateDistance) {
  for (const double angle : {1e-4, 1e-7, 1e-10, 1e-13, 1e-16}) {
    const Vec3 p1{0, 0, 0}, q1{10, 0, 0};
    const Vec3 p2{-3, 0.5, 0.25}, q2{7, 0.5 + 10 * angle, 0.25};
    const SegmentPoints cp = ClosestPointsSegments(p1, q1, p2, q2);
    const double ref = static_cast<double>(testing::RefSegmentSegment(p1, q1, p2, q2));
    EXPECT_NEAR(Length(cp.point2 - cp.point1), ref, 1e-14) << "angle " << angle;
  }
}

// Seeded random segments (general, short, parallel, collinear and
// zero-length) against the reference: the distance matches and the points
// lie on their segments at the returned parameters.
TEST(ClosestPointsSegmentsTest, RandomAgainstReference) {
  testing::ShapeFactory f(20261121);
  for (int i = 0; i < 20000; ++i) {
    Vec3 p1 = f.Position(), q1 = f.Position(), p2 = f.Position(), q2 = f.Position();
    switch (i % 5) {
      case 1:  // parallel
        q2 = p2 + (q1 - p1) * f.Uniform(-2, 2);
        break;
      case 2:  // collinear
        p2 = p1 + (q1 - p1) * f.Uniform(-1, 2);
        q2 = p1 + (q1 - p1) * f.Uniform(-1, 2);
        break;
      case 3:  // zero-length
        if (i % 2)
          q1 = p1;
        else
          q2 = p2;
        break;
      case 4:  // short
        q2 = p2 + f.UnitVector() * 1e-6;
        break;
      default:
        break;
    }
    const SegmentPoints cp = ClosestPointsSegments(p1, q1, p2, q2);
    ASSERT_GE(cp.s, 0.0);
    ASSERT_LE(cp.s, 1.0);
    ASSERT_GE(cp.t, 0.0);
    ASSERT_LE(cp.t, 1.0);
    ExpectVecNear(cp.point1, p1 + (q1 - p1) * cp.s, 1e-15);
    ExpectVecNear(cp.point2, p2 + (q2 - p2) * cp.t, 1e-15);
    const double ref = static_cast<double>(testing::RefSegmentSegment(p1, q1, p2, q2));
    ASSERT_NEAR(Length(cp.point2 - cp.point1), ref, 1e-13) << "case " << i;
  }
}

}  // namespace
}  // namespace collide::internal
