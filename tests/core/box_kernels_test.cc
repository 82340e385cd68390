// Per-kernel tests of the box kernels (kernels_box.h): analytic cases for
// touching, parallel, containment, edge-edge, degenerate and extreme-scale
// configurations, and seeded random property checks of the result
// convention (result.h) for every pair.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>

#include "collide/query.h"
#include "query/box/closest_box_box.h"
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

constexpr double kSqrt2 = std::numbers::sqrt2;

::testing::AssertionResult VecNear(const Vec3& a, const Vec3& b, double tol) {
  if (std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol && std::fabs(a.z - b.z) <= tol) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "(" << a.x << ", " << a.y << ", " << a.z << ") vs (" << b.x << ", "
                                       << b.y << ", " << b.z << "), tolerance " << tol;
}
#define EXPECT_VEC_NEAR(...) EXPECT_TRUE(VecNear(__VA_ARGS__))

Quat AxisAngle(const Vec3& axis, double angle) {
  const Vec3 u = axis / Length(axis);
  const double s = std::sin(angle / 2);
  return {std::cos(angle / 2), u.x * s, u.y * s, u.z * s};
}

Obb Cube(const Vec3& c, double h, const Quat& q = {}) { return Obb::FromQuat(c, q, {h, h, h}); }
Aabb Box(const Vec3& lo, const Vec3& hi) { return {lo, hi}; }

// ---------------------------------------------------------------- point

TEST(PointBoxTest, OutsideCornerDistance) {
  const Aabb b = Box({0, 0, 0}, {1, 1, 1});
  const PairResult r = DistancePointAabb(Point{{2, 3, -1}}, b);
  EXPECT_FALSE(r.hit);
  EXPECT_DOUBLE_EQ(r.distance, std::sqrt(1 + 4 + 1));
  EXPECT_EQ(r.point_b, (Vec3{1, 1, 0}));
  EXPECT_EQ(r.point_a, (Vec3{2, 3, -1}));
  EXPECT_EQ(ContactPointAabb(Point{{2, 3, -1}}, b), r);
  EXPECT_FALSE(IntersectPointAabb(Point{{2, 3, -1}}, b));
}

TEST(PointBoxTest, OnFaceEdgeAndCornerTouches) {
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  for (const Vec3 p : {Vec3{1, 0, 0}, Vec3{1, -1, 0}, Vec3{1, 1, -1}}) {
    EXPECT_TRUE(IntersectPointAabb(Point{p}, b));
    const PairResult d = DistancePointAabb(Point{p}, b);
    EXPECT_TRUE(d.hit);
    EXPECT_EQ(d.distance, 0.0);
    const PairResult c = ContactPointAabb(Point{p}, b);
    EXPECT_TRUE(c.hit);
    EXPECT_EQ(c.distance, 0.0);
    EXPECT_EQ(c.point_b, p);
  }
  // On face +x: the box moves by -x to let the point out of its +x face.
  EXPECT_EQ(ContactPointAabb(Point{{1, 0.5, 0}}, b).normal, (Vec3{-1, 0, 0}));
}

TEST(PointBoxTest, InsideLeavesThroughNearestFace) {
  const Aabb b = Box({0, 0, 0}, {4, 2, 2});
  const PairResult c = ContactPointAabb(Point{{3.5, 1, 1.2}}, b);
  EXPECT_TRUE(c.hit);
  EXPECT_DOUBLE_EQ(c.distance, -0.5);
  EXPECT_EQ(c.normal, (Vec3{-1, 0, 0}));  // out through +x: move the box by -x.
  EXPECT_EQ(c.point_a, (Vec3{3.5, 1, 1.2}));
  EXPECT_EQ(c.point_b, (Vec3{4, 1, 1.2}));
}

TEST(PointBoxTest, CentreTieBreaksPreferringPlusXThenPlusY) {
  const PairResult cube = ContactPointAabb(Point{{0, 0, 0}}, Box({-1, -1, -1}, {1, 1, 1}));
  EXPECT_EQ(cube.normal, (Vec3{1, 0, 0}));
  EXPECT_EQ(cube.distance, -1.0);
  EXPECT_EQ(cube.point_b, (Vec3{-1, 0, 0}));
  const PairResult flat = ContactPointAabb(Point{{0, 0, 0}}, Box({-2, -1, -1}, {2, 1, 1}));
  EXPECT_EQ(flat.normal, (Vec3{0, 1, 0}));
  // The Obb breaks the tie on world normals: a quarter turn about z maps local
  // y to world -x, so +x in world is local -y.
  const Obb turned = Cube({5, 5, 5}, 1, AxisAngle({0, 0, 1}, std::numbers::pi / 2));
  const PairResult o = ContactPointObb(Point{{5, 5, 5}}, turned);
  EXPECT_VEC_NEAR(o.normal, (Vec3{1, 0, 0}), 1e-15);
  EXPECT_VEC_NEAR(o.point_b, (Vec3{4, 5, 5}), 1e-15);
}

TEST(PointBoxTest, ObbMatchesAabbAfterRotation) {
  const Quat q = AxisAngle({1, 2, 3}, 0.7);
  const Obb b = Obb::FromQuat({1, 2, 3}, q, {1, 2, 0.5});
  const Mat3 r = RotationFromQuat(q);
  const Vec3 local{3, -1, 0.2};
  const PairResult d = DistancePointObb(Point{b.center + r * local}, b);
  EXPECT_NEAR(d.distance, 2.0, 1e-14);
  EXPECT_VEC_NEAR(d.point_b, b.center + r * Vec3{1, -1, 0.2}, 1e-14);
  EXPECT_VEC_NEAR(d.normal, r * Vec3{-1, 0, 0}, 1e-14);
  EXPECT_FALSE(IntersectPointObb(Point{b.center + r * local}, b));
  EXPECT_TRUE(IntersectPointObb(Point{b.center + r * Vec3{0.9, -1.9, 0.4}}, b));
}

TEST(PointBoxTest, ZeroExtentBoxIsAPoint) {
  const Aabb b = Box({1, 1, 1}, {1, 1, 1});
  EXPECT_TRUE(IntersectPointAabb(Point{{1, 1, 1}}, b));
  const PairResult c = ContactPointAabb(Point{{1, 1, 1}}, b);
  EXPECT_EQ(c.distance, 0.0);
  EXPECT_EQ(c.normal, (Vec3{1, 0, 0}));
  EXPECT_DOUBLE_EQ(ContactPointAabb(Point{{1, 4, 5}}, b).distance, 5.0);
}

// --------------------------------------------------------------- sphere

TEST(SphereBoxTest, TouchingFaceEdgeCornerExactly) {
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  // Face: centre 2 away from the face at x = 1, radius 1... centre at x = 3.
  const Sphere face{{3, 0, 0}, 2};
  EXPECT_TRUE(IntersectSphereAabb(face, b));
  EXPECT_EQ(ContactSphereAabb(face, b).distance, 0.0);
  EXPECT_TRUE(ContactSphereAabb(face, b).hit);
  // Edge at 3-4-5 distance; corner at 1-2-2.
  const Sphere edge{{4, 5, 0}, 5};
  EXPECT_TRUE(IntersectSphereAabb(edge, b));
  EXPECT_EQ(DistanceSphereAabb(edge, b).distance, 0.0);
  const Sphere corner{{2, 3, 3}, 3};
  EXPECT_TRUE(IntersectSphereAabb(corner, b));
  const PairResult c = ContactSphereAabb(corner, b);
  EXPECT_EQ(c.distance, 0.0);
  EXPECT_VEC_NEAR(c.normal, (Vec3{-1, -2, -2}) / 3, 1e-15);
  EXPECT_FALSE(IntersectSphereAabb(Sphere{{2, 3, 3}, 2.999999}, b));
}

TEST(SphereBoxTest, CentreInsidePushesOutThroughNearestFace) {
  const Aabb b = Box({0, 0, 0}, {10, 10, 10});
  const PairResult c = ContactSphereAabb(Sphere{{1, 5, 5}, 2}, b);
  EXPECT_TRUE(c.hit);
  EXPECT_DOUBLE_EQ(c.distance, -3.0);
  EXPECT_EQ(c.normal, (Vec3{1, 0, 0}));  // out through -x: move the box by +x.
  EXPECT_EQ(c.point_a, (Vec3{3, 5, 5}));
  EXPECT_EQ(c.point_b, (Vec3{0, 5, 5}));
  const PairResult d = DistanceSphereAabb(Sphere{{1, 5, 5}, 2}, b);
  EXPECT_TRUE(d.hit);
  EXPECT_EQ(d.point_a, (Vec3{1, 5, 5}));
}

TEST(SphereBoxTest, CentreOutsideOverlapping) {
  const Obb b = Cube({0, 0, 0}, 1, AxisAngle({0, 0, 1}, std::numbers::pi / 4));
  // The box's corner points along +x at x = sqrt(2).
  const PairResult c = ContactSphereObb(Sphere{{kSqrt2 + 0.5, 0, 0}, 1}, b);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, -0.5, 1e-15);
  EXPECT_VEC_NEAR(c.normal, (Vec3{-1, 0, 0}), 1e-15);
  EXPECT_VEC_NEAR(c.point_b, (Vec3{kSqrt2, 0, 0}), 1e-15);
  EXPECT_VEC_NEAR(c.point_a, (Vec3{kSqrt2 - 0.5, 0, 0}), 1e-15);
  EXPECT_TRUE(IntersectSphereObb(Sphere{{kSqrt2 + 0.5, 0, 0}, 0.5 + 1e-12}, b));
  EXPECT_FALSE(IntersectSphereObb(Sphere{{kSqrt2 + 0.5, 0, 0}, 0.5 - 1e-12}, b));
}

// ------------------------------------------------------ segment/capsule

TEST(SegmentBoxTest, ParallelToFace) {
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  const Segment s{{-3, 0, 2}, {0.5, 0, 2}};
  EXPECT_FALSE(IntersectSegmentAabb(s, b));
  const PairResult d = DistanceSegmentAabb(s, b);
  EXPECT_DOUBLE_EQ(d.distance, 1.0);
  EXPECT_EQ(d.normal, (Vec3{0, 0, -1}));
  EXPECT_EQ(d.point_a.z, 2.0);
  EXPECT_EQ(d.point_b.z, 1.0);
  EXPECT_LE(std::fabs(d.point_a.x), 1.0);
  // Lowered onto the face: touching.
  const Segment t{{-3, 0, 1}, {0.5, 0, 1}};
  EXPECT_TRUE(IntersectSegmentAabb(t, b));
  EXPECT_EQ(ContactSegmentAabb(t, b).distance, 0.0);
}

TEST(SegmentBoxTest, SkewClosestToEdge) {
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  // Along z at (2, 2): closest to the box edge x = y = 1.
  const Segment s{{2, 2, -5}, {2, 2, 5}};
  const PairResult d = DistanceSegmentAabb(s, b);
  EXPECT_DOUBLE_EQ(d.distance, kSqrt2);
  EXPECT_EQ(d.point_b.x, 1.0);
  EXPECT_EQ(d.point_b.y, 1.0);
  // Diagonal above a corner, nearest at an interior parameter.
  const Segment diag{{3, 0, 3}, {0, 3, 3}};
  const PairResult e = DistanceSegmentAabb(diag, b);
  EXPECT_NEAR(e.distance, std::sqrt(0.25 + 0.25 + 4), 1e-15);
  EXPECT_VEC_NEAR(e.point_a, (Vec3{1.5, 1.5, 3}), 1e-15);
  EXPECT_VEC_NEAR(e.point_b, (Vec3{1, 1, 1}), 1e-15);
}

TEST(SegmentBoxTest, CutsCornerDepthFromCrossAxis) {
  // The segment on x + y = 1.8 cuts the box's z edge at (1, 1): only the
  // cross axis e_z x d gives the least overlap, 0.2 / sqrt(2).
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  const Segment s{{2.8, -1, 0}, {-1, 2.8, 0}};
  EXPECT_TRUE(IntersectSegmentAabb(s, b));
  const PairResult c = ContactSegmentAabb(s, b);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, -0.2 / kSqrt2, 1e-15);
  EXPECT_VEC_NEAR(c.normal, (Vec3{-1, -1, 0}) / kSqrt2, 1e-15);
  EXPECT_VEC_NEAR(c.point_a, (Vec3{0.9, 0.9, 0}), 1e-15);
  EXPECT_VEC_NEAR(c.point_b, (Vec3{1, 1, 0}), 1e-15);
  // As a capsule of radius 0.1 the depth grows by the radius.
  const PairResult k = ContactCapsuleAabb(Capsule{s.a, s.b, 0.1}, b);
  EXPECT_NEAR(k.distance, -0.2 / kSqrt2 - 0.1, 1e-15);
  EXPECT_VEC_NEAR(k.point_b, (Vec3{1, 1, 0}), 1e-15);
}

TEST(SegmentBoxTest, ThroughTheBoxLeavesThroughNearestFace) {
  const Aabb b = Box({-1, -1, -1}, {1, 1, 1});
  const PairResult c = ContactSegmentAabb(Segment{{-2, 0.5, 0}, {2, 0.5, 0}}, b);
  EXPECT_DOUBLE_EQ(c.distance, -0.5);
  EXPECT_EQ(c.normal, (Vec3{0, -1, 0}));
  EXPECT_EQ(c.point_b.y, 1.0);
  EXPECT_EQ(c.point_a.y, 0.5);
  EXPECT_LE(std::fabs(c.point_a.x), 1.0);
}

TEST(SegmentBoxTest, DegenerateSegmentIsAPoint) {
  const Obb b = Obb::FromQuat({0, 1, 0}, AxisAngle({1, 1, 0}, 0.3), {1, 2, 3});
  for (const Vec3 p : {Vec3{0, 1, 0}, Vec3{0.3, 1.2, -0.4}, Vec3{4, 4, 4}}) {
    const PairResult seg = ContactSegmentObb(Segment{p, p}, b);
    const PairResult pt = ContactPointObb(Point{p}, b);
    EXPECT_NEAR(seg.distance, pt.distance, 1e-14);
    EXPECT_VEC_NEAR(seg.normal, pt.normal, 1e-14);
    EXPECT_EQ(IntersectSegmentObb(Segment{p, p}, b), IntersectPointObb(Point{p}, b));
  }
}

TEST(CapsuleBoxTest, TouchingAndSeparated) {
  const Obb b = Cube({0, 0, 0}, 1, AxisAngle({0, 0, 1}, std::numbers::pi / 4));
  // Vertical capsule beside the box's +x corner edge (x = sqrt(2)).
  const Capsule touching{{kSqrt2 + 0.5, 0, -3}, {kSqrt2 + 0.5, 0, 3}, 0.5};
  EXPECT_NEAR(ContactCapsuleObb(touching, b).distance, 0.0, 1e-15);
  EXPECT_TRUE(IntersectCapsuleObb(Capsule{touching.a, touching.b, 0.5 + 1e-12}, b));
  EXPECT_FALSE(IntersectCapsuleObb(Capsule{touching.a, touching.b, 0.5 - 1e-12}, b));
  const Capsule apart{{kSqrt2 + 1.5, 0, -3}, {kSqrt2 + 1.5, 0, 3}, 0.5};
  EXPECT_FALSE(IntersectCapsuleObb(apart, b));
  const PairResult d = DistanceCapsuleObb(apart, b);
  EXPECT_NEAR(d.distance, 1.0, 1e-15);
  EXPECT_VEC_NEAR(d.normal, (Vec3{-1, 0, 0}), 1e-15);
  EXPECT_NEAR(d.point_b.x, kSqrt2, 1e-15);
}

// A capsule lying on a box face, partly overhanging it: the deepest points
// are not unique, and the rule is the middle of the contact, the part of
// the axis over the face (x in [0.2, 1] here, so x = 0.6).
TEST(CapsuleBoxTest, LyingOnFaceOverhangingWitnessIsTheMiddleOfTheContact) {
  const Quat q = AxisAngle({1, 2, 3}, 0.7);
  const Mat3 r = RotationFromQuat(q);
  const Obb box = Obb::FromQuat({0.1, -0.2, 0.3}, q, {1, 1, 1});
  const auto world = [&](const Vec3& p) { return box.center + r * p; };
  // The axis 0.1 above the face, radius 0.25: overlapping by 0.15.
  const Capsule lying{world({0.2, 0.4, 1.1}), world({3, 0.4, 1.1}), 0.25};
  const PairResult c = Contact(lying, box);
  EXPECT_NEAR(c.distance, -0.15, 1e-14);
  EXPECT_VEC_NEAR(c.normal, -r.col[2], 1e-14);
  EXPECT_VEC_NEAR(c.point_a, world({0.6, 0.4, 0.85}), 1e-14);
  EXPECT_VEC_NEAR(c.point_b, world({0.6, 0.4, 1.0}), 1e-14);
  EXPECT_EQ(Contact(box, lying), c.Flipped());
  // The same apart (the closest points) and with the axis itself sunk 0.1
  // into the box, where the edge axis e_y x d equals the face axis.
  const PairResult d = Contact(Capsule{lying.a, lying.b, 0.05}, box);
  EXPECT_NEAR(d.distance, 0.05, 1e-14);
  EXPECT_VEC_NEAR(d.point_a, world({0.6, 0.4, 1.05}), 1e-14);
  EXPECT_VEC_NEAR(d.point_b, world({0.6, 0.4, 1.0}), 1e-14);
  EXPECT_EQ(Distance(Capsule{lying.a, lying.b, 0.05}, box), d);
  const PairResult s = Contact(Segment{world({0.2, 0.4, 0.9}), world({3, 0.4, 0.9})}, box);
  EXPECT_NEAR(s.distance, -0.1, 1e-14);
  EXPECT_VEC_NEAR(s.normal, -r.col[2], 1e-14);
  EXPECT_VEC_NEAR(s.point_a, world({0.6, 0.4, 0.9}), 1e-14);
  EXPECT_VEC_NEAR(s.point_b, world({0.6, 0.4, 1.0}), 1e-14);
}

// A capsule along a box edge, overhanging its end: the middle of the
// overlap of the axis and the edge (x in [0.5, 1], so x = 0.75).
TEST(CapsuleBoxTest, AlongAnEdgeWitnessIsTheMiddleOfTheOverlap) {
  const Quat q = AxisAngle({-1, 0.5, 2}, 1.1);
  const Mat3 r = RotationFromQuat(q);
  const Obb box = Obb::FromQuat({0.3, 0.2, -0.1}, q, {1, 1, 1});
  const auto world = [&](const Vec3& p) { return box.center + r * p; };
  const Capsule along{world({0.5, 1.1, 1.1}), world({3, 1.1, 1.1}), 0.3};
  const PairResult c = Contact(along, box);
  const Vec3 n = r * (Vec3{0, -1, -1} / kSqrt2);
  EXPECT_NEAR(c.distance, 0.1 * kSqrt2 - 0.3, 1e-14);
  EXPECT_VEC_NEAR(c.normal, n, 1e-14);
  EXPECT_VEC_NEAR(c.point_b, world({0.75, 1, 1}), 1e-14);
  EXPECT_VEC_NEAR(c.point_a, world({0.75, 1.1, 1.1}) + n * 0.3, 1e-14);
  EXPECT_EQ(Contact(box, along), c.Flipped());
}

// ------------------------------------------------------------ aabb-aabb

TEST(AabbAabbTest, TouchingFacesEdgesCorners) {
  const Aabb a = Box({0, 0, 0}, {1, 1, 1});
  for (const Aabb b : {Box({1, 0, 0}, {2, 1, 1}), Box({1, 1, 0}, {2, 2, 1}), Box({1, 1, 1}, {2, 2, 2})}) {
    EXPECT_TRUE(IntersectAabbAabb(a, b));
    const PairResult c = ContactAabbAabb(a, b);
    EXPECT_TRUE(c.hit);
    EXPECT_EQ(c.distance, 0.0);
    EXPECT_EQ(c.normal, (Vec3{1, 0, 0}));
    EXPECT_TRUE(DistanceAabbAabb(a, b).hit);
  }
}

TEST(AabbAabbTest, GapVector) {
  const PairResult d = DistanceAabbAabb(Box({0, 0, 0}, {1, 1, 1}), Box({2, 3, -3}, {4, 4, -1}));
  EXPECT_FALSE(d.hit);
  EXPECT_DOUBLE_EQ(d.distance, std::sqrt(6.0));
  EXPECT_EQ(d.point_a, (Vec3{1, 1, 0}));
  EXPECT_EQ(d.point_b, (Vec3{2, 3, -1}));
  EXPECT_VEC_NEAR(d.normal, Vec3{1, 2, -1} / std::sqrt(6.0), 1e-15);
}

TEST(AabbAabbTest, ContainmentDepthIsTheShortestWayOut) {
  // Small box near the big box's -y face: out through -y in 1.5.
  const PairResult c = ContactAabbAabb(Box({-10, -10, -10}, {10, 10, 10}), Box({0, -9.5, 0}, {1, -8.5, 1}));
  EXPECT_DOUBLE_EQ(c.distance, -1.5);
  EXPECT_EQ(c.normal, (Vec3{0, -1, 0}));
  EXPECT_EQ(c.point_a.y, -10.0);  // A's face that B must clear,
  EXPECT_EQ(c.point_b.y, -8.5);   // and B's last point to clear it.
  // Concentric cubes: every face ties; +x wins.
  const PairResult t = ContactAabbAabb(Box({-2, -2, -2}, {2, 2, 2}), Box({-1, -1, -1}, {1, 1, 1}));
  EXPECT_EQ(t.distance, -3.0);
  EXPECT_EQ(t.normal, (Vec3{1, 0, 0}));
}

// -------------------------------------------------------------- obb-obb

// Two unit-half cubes whose edges cross at right angles with gap g along x:
// A turned 45 degrees about z (its z edge at x = sqrt 2), B turned 45 degrees
// about y (its y edge at x = centre - sqrt 2). All six face axes overlap;
// only the edge-edge axis e_z x e_y separates them.
std::pair<Obb, Obb> CrossedEdges(double gap, double scale = 1.0) {
  const Obb a = Cube({0, 0, 0}, scale, AxisAngle({0, 0, 1}, std::numbers::pi / 4));
  const Obb b = Cube({(2 * kSqrt2) * scale + gap, 0, 0}, scale, AxisAngle({0, 1, 0}, std::numbers::pi / 4));
  return {a, b};
}

TEST(ObbObbTest, EdgeEdgeSeparationOnlyCrossAxesSee) {
  const auto [a, b] = CrossedEdges(0.01);
  EXPECT_FALSE(IntersectObbObb(a, b));
  const PairResult d = DistanceObbObb(a, b);
  EXPECT_FALSE(d.hit);
  EXPECT_NEAR(d.distance, 0.01, 1e-14);
  EXPECT_VEC_NEAR(d.point_a, (Vec3{kSqrt2, 0, 0}), 1e-14);
  EXPECT_VEC_NEAR(d.point_b, (Vec3{kSqrt2 + 0.01, 0, 0}), 1e-14);
  EXPECT_VEC_NEAR(d.normal, (Vec3{1, 0, 0}), 1e-12);
  EXPECT_EQ(ContactObbObb(a, b), d);
}

TEST(ObbObbTest, EdgeEdgePenetration) {
  const auto [a, b] = CrossedEdges(-0.01);
  EXPECT_TRUE(IntersectObbObb(a, b));
  const PairResult c = ContactObbObb(a, b);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, -0.01, 1e-14);
  EXPECT_VEC_NEAR(c.normal, (Vec3{1, 0, 0}), 1e-14);
  EXPECT_VEC_NEAR(c.point_a, (Vec3{kSqrt2, 0, 0}), 1e-14);
  EXPECT_VEC_NEAR(c.point_b, (Vec3{kSqrt2 - 0.01, 0, 0}), 1e-14);
  const PairResult d = DistanceObbObb(a, b);
  EXPECT_TRUE(d.hit);
  EXPECT_EQ(d.distance, 0.0);
}

TEST(ObbObbTest, EdgeEdgeTouchingAtHugeAndTinyScales) {
  for (const double scale : {1e-9, 1.0, 1e9}) {
    SCOPED_TRACE(scale);
    const auto [a, b] = CrossedEdges(0.0, scale);
    EXPECT_TRUE(IntersectObbObb(a, b));
    const PairResult c = ContactObbObb(a, b);
    EXPECT_NEAR(c.distance, 0.0, 1e-14 * scale);
    const auto [a2, b2] = CrossedEdges(1e-3 * scale, scale);
    EXPECT_FALSE(IntersectObbObb(a2, b2));
    EXPECT_NEAR(DistanceObbObb(a2, b2).distance, 1e-3 * scale, 1e-13 * scale);
    const auto [a3, b3] = CrossedEdges(-1e-3 * scale, scale);
    EXPECT_NEAR(ContactObbObb(a3, b3).distance, -1e-3 * scale, 1e-13 * scale);
  }
}

TEST(ObbObbTest, TouchingFacesOfEqualRotation) {
  const Quat q = AxisAngle({1, 1, 1}, 0.4);
  const Mat3 r = RotationFromQuat(q);
  const Obb a = Obb::FromQuat({0, 0, 0}, q, {1, 2, 3});
  const Obb b = Obb::FromQuat(r * Vec3{2, 0.5, 0}, q, {1, 2, 3});
  EXPECT_TRUE(IntersectObbObb(a, b));
  const PairResult c = ContactObbObb(a, b);
  EXPECT_NEAR(c.distance, 0.0, 1e-14);
  EXPECT_VEC_NEAR(c.normal, r.col[0], 1e-14);
  // Parallel faces apart by 0.5: the closest points lie on the overlap.
  const Obb far = Obb::FromQuat(r * Vec3{2.5, 0.5, 0}, q, {1, 2, 3});
  const PairResult d = DistanceObbObb(a, far);
  EXPECT_NEAR(d.distance, 0.5, 1e-14);
  EXPECT_VEC_NEAR(d.normal, r.col[0], 1e-13);
  const Vec3 local = TransposeMul(r, d.point_a);
  EXPECT_NEAR(local.x, 1.0, 1e-14);
  EXPECT_GE(local.y, -1.5 - 1e-14);
  EXPECT_LE(local.y, 2.0 + 1e-14);
}

TEST(ObbObbTest, ParallelFacesOverlapGivesPointInBothFaces) {
  // B sits on A's top face, sunk by 0.1, turned 30 degrees about z.
  const Obb a = Cube({0, 0, 0}, 1);
  const Obb b = Cube({0.5, 0, 1.9}, 1, AxisAngle({0, 0, 1}, std::numbers::pi / 6));
  const PairResult c = ContactObbObb(a, b);
  EXPECT_TRUE(c.hit);
  EXPECT_NEAR(c.distance, -0.1, 1e-14);
  EXPECT_VEC_NEAR(c.normal, (Vec3{0, 0, 1}), 1e-15);
  EXPECT_NEAR(c.point_a.z, 1.0, 1e-14);
  EXPECT_NEAR(c.point_b.z, 0.9, 1e-14);
  EXPECT_TRUE(IntersectPointObb(Point{c.point_a}, b) ||
              ContactPointObb(Point{c.point_a}, b).distance < 1e-14);
  EXPECT_LE(std::fabs(c.point_a.x), 1.0);
  EXPECT_LE(std::fabs(c.point_a.y), 1.0);
}

// Box B stacked on A's +z face, sunk 0.2 and overhanging in x: the contact
// region is the rectangle x in [0.5, 1], y in [-0.2, 0.8] of A's face, and
// the rule puts both witnesses at its middle, (0.75, 0.3), in either order.
// Both boxes share a rotation, so their faces are parallel up to round-off
// (an edge axis e_x x b_y equals the face axis there and may win by an ulp).
TEST(ObbObbTest, StackedFacesWitnessIsTheMiddleOfTheContact) {
  const Quat q = AxisAngle({1, 2, 3}, 0.7);
  const Mat3 r = RotationFromQuat(q);
  const Obb a = Obb::FromQuat({0.1, -0.2, 0.3}, q, {1, 1, 1});
  const auto world = [&](const Vec3& p) { return a.center + r * p; };
  const Obb b = Obb::FromQuat(world({1.5, 0.3, 1.3}), q, {1, 0.5, 0.5});
  for (const PairResult& c : {ContactObbObb(a, b), ContactObbObb(b, a).Flipped(), Contact(a, b)}) {
    EXPECT_NEAR(c.distance, -0.2, 1e-14);
    EXPECT_VEC_NEAR(c.normal, r.col[2], 1e-14);
    EXPECT_VEC_NEAR(c.point_a, world({0.75, 0.3, 1}), 1e-14);
    EXPECT_VEC_NEAR(c.point_b, world({0.75, 0.3, 0.8}), 1e-14);
  }
  // Apart by 0.1 instead: the same middle for the closest points.
  const Obb up = Obb::FromQuat(world({1.5, 0.3, 1.6}), q, {1, 0.5, 0.5});
  const PairResult d = ContactObbObb(a, up);
  EXPECT_NEAR(d.distance, 0.1, 1e-14);
  EXPECT_VEC_NEAR(d.point_a, world({0.75, 0.3, 1}), 1e-14);
  EXPECT_VEC_NEAR(d.point_b, world({0.75, 0.3, 1.1}), 1e-14);
}

TEST(ObbObbTest, ContainmentAndCentreTie) {
  const Obb big = Cube({0, 0, 0}, 5, AxisAngle({1, 0, 0}, 0.3));
  const Obb small = Cube({0, 0, 0}, 1, AxisAngle({1, 0, 0}, 0.3));
  const PairResult c = ContactObbObb(big, small);
  EXPECT_NEAR(c.distance, -6.0, 1e-14);
  // The rotation is about x, so world +x is a face normal of both: it wins.
  EXPECT_VEC_NEAR(c.normal, (Vec3{1, 0, 0}), 1e-15);
}

TEST(ObbObbTest, NearParallelEdgesStayStable) {
  // B turned by a tiny angle about z relative to A, overlapping by 0.25 in x.
  for (const double angle : {0.0, 1e-14, 1e-10, 1e-7}) {
    SCOPED_TRACE(angle);
    const Obb a = Obb::FromQuat({0, 0, 0}, AxisAngle({0, 0, 1}, 0.5), {1, 1, 1});
    const Mat3 r = a.rotation;
    const Obb b = Obb::FromQuat(r * Vec3{1.75, 0.3, 0.2}, AxisAngle({0, 0, 1}, 0.5 + angle), {1, 1, 1});
    EXPECT_TRUE(IntersectObbObb(a, b));
    const PairResult c = ContactObbObb(a, b);
    EXPECT_NEAR(c.distance, -0.25, 2e-7);
    EXPECT_VEC_NEAR(c.normal, r.col[0], 1e-6);
  }
}

TEST(ObbObbTest, ZeroExtentBoxes) {
  const Obb a = Cube({0, 0, 0}, 1, AxisAngle({1, 2, 3}, 0.5));
  // A point-like box and a point.
  const Obb p = Obb::FromQuat({2, 0.5, 0.1}, AxisAngle({0, 1, 0}, 0.2), {0, 0, 0});
  EXPECT_NEAR(ContactObbObb(a, p).distance, ContactPointObb(Point{p.center}, a).distance, 1e-14);
  // A segment-like box (extent along its x) and the segment.
  const Obb s = Obb::FromQuat({2, 0.5, 0.1}, AxisAngle({0, 1, 1}, 0.7), {1.5, 0, 0});
  const Segment seg{s.center - s.rotation.col[0] * 1.5, s.center + s.rotation.col[0] * 1.5};
  EXPECT_NEAR(DistanceObbObb(a, s).distance, DistanceSegmentObb(seg, a).distance, 1e-14);
  EXPECT_NEAR(ContactObbObb(a, s).distance, ContactSegmentObb(seg, a).distance, 1e-14);
  // Two unit squares crossing like a plus sign (one in the xy plane, one in
  // the xz plane): their Minkowski difference is the box [-2,2]x[-1,1]^2, so
  // one must move by 1 along y or z to separate.
  const Obb r1 = Obb::FromQuat({0, 0, 0}, {}, {1, 1, 0});
  const Obb r2 = Obb::FromQuat({0, 0, 0}, AxisAngle({1, 0, 0}, std::numbers::pi / 2), {1, 1, 0});
  EXPECT_TRUE(IntersectObbObb(r1, r2));
  const PairResult x = ContactObbObb(r1, r2);
  EXPECT_NEAR(x.distance, -1.0, 1e-15);
  EXPECT_VEC_NEAR(x.normal, (Vec3{0, 1, 0}), 1e-15);
  // Side by side in one plane, touching along an edge.
  const Obb r3 = Obb::FromQuat({2, 0, 0}, {}, {1, 1, 0});
  EXPECT_TRUE(IntersectObbObb(r1, r3));
  EXPECT_EQ(ContactObbObb(r1, r3).distance, 0.0);
}

TEST(ObbObbTest, IdentityRotationsMatchAabbAabb) {
  testing::ShapeFactory f(7);
  for (int n = 0; n < 2000; ++n) {
    const Aabb a = std::get<Aabb>(f.Make(ShapeKind::kAabb));
    const Aabb b = std::get<Aabb>(f.Make(ShapeKind::kAabb));
    const Obb oa = ObbFromAabb(a), ob = ObbFromAabb(b);
    const PairResult e = ContactAabbAabb(a, b);
    const PairResult o = ContactObbObb(oa, ob);
    EXPECT_EQ(IntersectObbObb(oa, ob), IntersectAabbAabb(a, b));
    EXPECT_EQ(o.hit, e.hit);
    EXPECT_NEAR(o.distance, e.distance, 1e-14);
    EXPECT_VEC_NEAR(o.normal, e.normal, 1e-14);
    // Apart, parallel faces have many closest pairs; overlapping, both take
    // the middle of the overlap across the contact axis.
    if (e.hit) {
      EXPECT_VEC_NEAR(o.point_a, e.point_a, 1e-12);
      EXPECT_VEC_NEAR(o.point_b, e.point_b, 1e-12);
    }
    const PairResult ab = ContactAabbObb(a, ob);
    EXPECT_EQ(ab, o);
  }
}

TEST(ObbObbTest, CertifiedClosestPointsMatchTheEdgeSearch) {
  // Two exact methods for apart boxes: the certificate (largest-gap axis or
  // mutual vertex projection) and the pruned edge search. Both must agree,
  // and the certificate must fire on most close pairs (it is the fast path).
  testing::ShapeFactory f(11, 1.2);
  int apart = 0, certified = 0;
  for (int n = 0; n < 4000; ++n) {
    const Obb a = std::get<Obb>(f.Make(ShapeKind::kObb));
    const Obb b = std::get<Obb>(f.Make(ShapeKind::kObb));
    const BoxPairFrame fr = MakeBoxPairFrame(a, b);
    if (!SeparatedBoxPair(fr)) continue;
    ++apart;
    BoxBoxClosest c;
    if (!CertifiedClosestBoxBox(fr, c)) continue;
    ++certified;
    const BoxBoxClosest e = ClosestBoxBoxFrame(fr);
    EXPECT_NEAR(std::sqrt(c.distance_squared), std::sqrt(e.distance_squared), 1e-13);
    EXPECT_NEAR(Length(c.on_b - c.on_a), std::sqrt(c.distance_squared), 1e-13);
  }
  EXPECT_GT(apart, 1000);
  EXPECT_GT(certified, apart * 3 / 4);
}

TEST(ObbObbTest, VertexToVertexAndVertexToEdge) {
  // Unit cubes turned so that a vertex of each points at the other along x:
  // the body diagonal (1,1,1) mapped onto x. Vertex-vertex distance is the
  // centre distance less two half diagonals.
  const Vec3 d = Vec3{1, 1, 1} / std::sqrt(3.0);
  const Vec3 axis = Cross(d, Vec3{1, 0, 0});
  const Quat q = AxisAngle(axis, std::acos(d.x));  // maps d to +x.
  const Obb a = Obb::FromQuat({0, 0, 0}, q, {1, 1, 1});
  const Obb b = Obb::FromQuat({2 * std::sqrt(3.0) + 0.5, 0, 0},
                              AxisAngle(axis, std::acos(d.x) + std::numbers::pi), {1, 1, 1});
  const PairResult r = DistanceObbObb(a, b);
  EXPECT_NEAR(r.distance, 0.5, 1e-14);
  EXPECT_VEC_NEAR(r.point_a, (Vec3{std::sqrt(3.0), 0, 0}), 1e-14);
  EXPECT_VEC_NEAR(r.normal, (Vec3{1, 0, 0}), 1e-14);
  // A's corner against the middle of an edge of B (an axis-aligned cube
  // turned 45 degrees about z, its +-x edge... its -x edge at x = c - sqrt 2).
  const Obb e = Cube({std::sqrt(3.0) + kSqrt2 + 0.25, 0, 0}, 1, AxisAngle({0, 0, 1}, std::numbers::pi / 4));
  const PairResult s = DistanceObbObb(a, e);
  EXPECT_NEAR(s.distance, 0.25, 1e-14);
  EXPECT_VEC_NEAR(s.point_b, (Vec3{std::sqrt(3.0) + 0.25, 0, 0}), 1e-14);
}

// ---------------------------------------------------- random properties

Shape Translated(const Shape& s, const Vec3& v) {
  return std::visit(
      [&](const auto& x) -> Shape {
        using T = std::decay_t<decltype(x)>;
        T y = x;
        if constexpr (std::is_same_v<T, Point>) y.position += v;
        if constexpr (std::is_same_v<T, Segment> || std::is_same_v<T, Capsule>) {
          y.a += v;
          y.b += v;
        }
        if constexpr (std::is_same_v<T, Sphere> || std::is_same_v<T, Obb>) y.center += v;
        if constexpr (std::is_same_v<T, Aabb>) {
          y.min += v;
          y.max += v;
        }
        return y;
      },
      s);
}

Vec3 ClosestOnSegment(const Vec3& a, const Vec3& b, const Vec3& p) {
  const Vec3 d = b - a;
  const double l2 = LengthSquared(d);
  const double t = l2 > 0 ? std::clamp(Dot(p - a, d) / l2, 0.0, 1.0) : 0.0;
  return a + d * t;
}

// Unsigned distance from p to the solid shape (0 inside).
double DistanceTo(const Shape& s, const Vec3& p) {
  return std::visit(
      [&](const auto& x) -> double {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Point>) return Length(p - x.position);
        if constexpr (std::is_same_v<T, Segment>) return Length(p - ClosestOnSegment(x.a, x.b, p));
        if constexpr (std::is_same_v<T, Sphere>) return std::max(0.0, Length(p - x.center) - x.radius);
        if constexpr (std::is_same_v<T, Capsule>) {
          return std::max(0.0, Length(p - ClosestOnSegment(x.a, x.b, p)) - x.radius);
        }
        if constexpr (std::is_same_v<T, Aabb>) return DistancePointAabb(Point{p}, x).distance;
        if constexpr (std::is_same_v<T, Obb>) return DistancePointObb(Point{p}, x).distance;
        return 0.0;
      },
      s);
}

// Distance from p to the boundary of the shape (for witness points).
double DistanceToSurface(const Shape& s, const Vec3& p) {
  return std::visit(
      [&](const auto& x) -> double {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Sphere>) return std::fabs(Length(p - x.center) - x.radius);
        if constexpr (std::is_same_v<T, Capsule>) {
          return std::fabs(Length(p - ClosestOnSegment(x.a, x.b, p)) - x.radius);
        }
        if constexpr (std::is_same_v<T, Aabb>) return std::fabs(ContactPointAabb(Point{p}, x).distance);
        if constexpr (std::is_same_v<T, Obb>) return std::fabs(ContactPointObb(Point{p}, x).distance);
        return DistanceTo(s, p);
      },
      s);
}

std::string Str(const Vec3& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "{%.17g, %.17g, %.17g}", v.x, v.y, v.z);
  return buf;
}

// The shape as C++ source, to paste failing random cases into a regression test.
std::string Str(const Shape& s) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Point>) return "Point{" + Str(x.position) + "}";
        if constexpr (std::is_same_v<T, Segment>) return "Segment{" + Str(x.a) + ", " + Str(x.b) + "}";
        if constexpr (std::is_same_v<T, Sphere>)
          return "Sphere{" + Str(x.center) + ", " + std::to_string(x.radius) + "}";
        if constexpr (std::is_same_v<T, Capsule>) {
          return "Capsule{" + Str(x.a) + ", " + Str(x.b) + ", " + std::to_string(x.radius) + "}";
        }
        if constexpr (std::is_same_v<T, Aabb>) return "Aabb{" + Str(x.min) + ", " + Str(x.max) + "}";
        if constexpr (std::is_same_v<T, Obb>) {
          const Quat q = QuatFromRotation(x.rotation);
          char buf[128];
          std::snprintf(buf, sizeof buf, "{%.17g, %.17g, %.17g, %.17g}", q.w, q.x, q.y, q.z);
          return "Obb::FromQuat(" + Str(x.center) + ", " + buf + ", " + Str(x.half_extents) + ")";
        }
        return "?";
      },
      s);
}

struct PairCase {
  ShapeKind a, b;
};

class BoxPairPropertyTest : public ::testing::TestWithParam<PairCase> {};

TEST_P(BoxPairPropertyTest, ResultConvention) {
  const PairCase pc = GetParam();
  // Points and segments are thin: a smaller cube keeps the hit rate up.
  const bool thin = pc.a == ShapeKind::kPoint || pc.a == ShapeKind::kSegment;
  testing::ShapeFactory f(1234 + 16 * static_cast<int>(pc.a) + static_cast<int>(pc.b), thin ? 0.8 : 1.5);
  int hits = 0;
  constexpr int kCases = 1500;
  constexpr double kTol = 1e-9;
  for (int n = 0; n < kCases; ++n) {
    const Shape a = f.Make(pc.a);
    const Shape b = f.Make(pc.b);
    const PairResult in = Query(QueryLevel::kIntersect, a, b);
    const PairResult di = Query(QueryLevel::kDistance, a, b);
    const PairResult c = Query(QueryLevel::kContact, a, b);
    ASSERT_EQ(c.status, QueryStatus::kOk);
    SCOPED_TRACE(Str(a) + " vs " + Str(b));
    // Levels agree; hit == (distance <= 0).
    EXPECT_EQ(in.hit, c.hit);
    EXPECT_EQ(di.hit, c.hit);
    EXPECT_EQ(c.hit, c.distance <= 0.0);
    EXPECT_NEAR(Length(c.normal), 1.0, 1e-12);
    EXPECT_NEAR(Length(c.point_b - c.point_a), std::fabs(c.distance), kTol);
    EXPECT_VEC_NEAR(c.point_b - c.point_a, c.normal * c.distance, kTol);
    // Witness points on the surfaces.
    EXPECT_NEAR(DistanceToSurface(a, c.point_a), 0.0, kTol);
    EXPECT_NEAR(DistanceToSurface(b, c.point_b), 0.0, kTol);
    if (!c.hit) {
      EXPECT_EQ(di, c);
      // Exact distance: each closest point is the other's projection.
      EXPECT_NEAR(DistanceTo(a, c.point_b), c.distance, kTol);
      EXPECT_NEAR(DistanceTo(b, c.point_a), c.distance, kTol);
    } else {
      ++hits;
      EXPECT_EQ(di.distance, 0.0);
      EXPECT_NEAR(DistanceTo(a, di.point_a), 0.0, kTol);
      EXPECT_NEAR(DistanceTo(b, di.point_a), 0.0, kTol);
    }
    // Moving B by -distance * normal: 1.01 of it flips the answer, 0.99 not.
    if (std::fabs(c.distance) > 1e-6) {
      const bool far = Query(QueryLevel::kIntersect, a, Translated(b, c.normal * (-c.distance * 1.01))).hit;
      const bool near = Query(QueryLevel::kIntersect, a, Translated(b, c.normal * (-c.distance * 0.99))).hit;
      EXPECT_EQ(far, !c.hit);
      EXPECT_EQ(near, c.hit);
    }
    // Depth is the least: no direction separates with 0.99 of it.
    if (c.distance < -1e-6) {
      for (int k = 0; k < 8; ++k) {
        const Vec3 u = f.UnitVector();
        EXPECT_TRUE(Query(QueryLevel::kIntersect, a, Translated(b, u * (-c.distance * 0.99))).hit);
      }
    }
  }
  EXPECT_GT(hits, kCases / 10);
  EXPECT_LT(hits, kCases * 9 / 10);
}

// core_fuzz found it: a needle box whose axes are 1e-161 off the other
// box's, so an edge-edge cross product has a subnormal squared length; the
// exact edge axes normalized it by sqrt(c2), 1e-3 off unit.
TEST(ObbObbTest, NearlyParallelEdgesAtSubnormalSineGiveUnitNormals) {
  const double t = 0x1.469bf1469bf13p-535;
  const Obb needle{{0, 0, 0}, {{{0, -t, -1}, {-t, 1, -t}, {1, t, 0}}}, {3, 0, 0}};
  const Obb point{{0, 0, 0}, Mat3{}, {0, 0, 0}};
  const PairResult c = Query(QueryLevel::kContact, needle, point);
  ASSERT_TRUE(c.hit);
  EXPECT_NEAR(Length(c.normal), 1.0, 1e-15);
  EXPECT_EQ(Query(QueryLevel::kContact, point, needle), c.Flipped());
}

TEST(ZeroExtentBoxTest, RectanglesSegmentsAndPointsKeepTheConvention) {
  // Rectangles, segments and points as boxes: each extent zeroed with
  // probability 1/2, against every other box-family kind.
  testing::ShapeFactory f(77, 1.0);
  constexpr double kTol = 1e-9;
  int hits = 0;
  for (int n = 0; n < 3000; ++n) {
    Obb o = std::get<Obb>(f.Make(ShapeKind::kObb));
    for (int k = 0; k < 3; ++k) {
      if (f.Uniform(0, 1) < 0.5) o.half_extents[k] = 0.0;
    }
    const ShapeKind other_kind = static_cast<ShapeKind>(static_cast<int>(f.Uniform(0, 6)));
    const Shape a = f.Make(other_kind);
    const Shape b = o;
    SCOPED_TRACE(Str(a) + " vs " + Str(b));
    const PairResult c = Query(QueryLevel::kContact, a, b);
    EXPECT_EQ(Query(QueryLevel::kIntersect, a, b).hit, c.hit);
    EXPECT_EQ(Query(QueryLevel::kDistance, a, b).hit, c.hit);
    EXPECT_EQ(c.hit, c.distance <= 0.0);
    EXPECT_NEAR(Length(c.normal), 1.0, 1e-12);
    EXPECT_VEC_NEAR(c.point_b - c.point_a, c.normal * c.distance, kTol);
    if (!c.hit) {
      EXPECT_NEAR(DistanceTo(a, c.point_b), c.distance, kTol);
      EXPECT_NEAR(DistanceTo(b, c.point_a), c.distance, kTol);
    } else {
      ++hits;
      const PairResult d = Query(QueryLevel::kDistance, a, b);
      EXPECT_NEAR(DistanceTo(a, d.point_a), 0.0, kTol);
      EXPECT_NEAR(DistanceTo(b, d.point_a), 0.0, kTol);
    }
  }
  EXPECT_GT(hits, 100);
}

INSTANTIATE_TEST_SUITE_P(
    AllBoxPairs, BoxPairPropertyTest,
    ::testing::Values(
        PairCase{ShapeKind::kPoint, ShapeKind::kAabb}, PairCase{ShapeKind::kPoint, ShapeKind::kObb},
        PairCase{ShapeKind::kSegment, ShapeKind::kAabb}, PairCase{ShapeKind::kSegment, ShapeKind::kObb},
        PairCase{ShapeKind::kSphere, ShapeKind::kAabb}, PairCase{ShapeKind::kSphere, ShapeKind::kObb},
        PairCase{ShapeKind::kCapsule, ShapeKind::kAabb}, PairCase{ShapeKind::kCapsule, ShapeKind::kObb},
        PairCase{ShapeKind::kAabb, ShapeKind::kAabb}, PairCase{ShapeKind::kAabb, ShapeKind::kObb},
        PairCase{ShapeKind::kObb, ShapeKind::kObb}),
    [](const ::testing::TestParamInfo<PairCase>& info) {
      return std::string(ShapeKindName(info.param.a)) + "_" + std::string(ShapeKindName(info.param.b));
    });

}  // namespace
}  // namespace collide::internal
