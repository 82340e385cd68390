// Tests of the test references themselves (tests/support/reference.h) and of
// the random pair sets: a wrong reference would make every differential test
// meaningless, so it is checked against closed forms here.
#include "support/reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/random_shapes.h"

namespace collide::testing {
namespace {

TEST(ReferenceTest, SupportPointsLieOnTheSurfaceAndAttainTheSupport) {
  for (int k = 0; k < kShapeKindCount - 1; ++k) {  // all but halfspace.
    const ShapeKind kind = static_cast<ShapeKind>(k);
    ShapeFactory f(k + 1);
    for (int i = 0; i < 300; ++i) {
      const Shape s = (i % 3 == 0) ? f.MakeDegenerate(kind) : f.Make(kind);
      const RefShape r(s);
      const Vec3 d = f.UnitVector();
      const Vec3 p = SupportPoint(s, d);
      EXPECT_NEAR(r.SurfaceDistance(p), 0.0, 1e-12) << ShapeKindName(kind) << " " << Describe(s);
      EXPECT_NEAR(Dot(d, p), r.Support(d), 1e-12) << ShapeKindName(kind);
      // Just outside along d: outside by the step.
      EXPECT_NEAR(r.Distance(p + d * 1e-3), 1e-3, 1e-9) << ShapeKindName(kind) << " " << Describe(s);
    }
  }
}

TEST(ReferenceTest, SurfaceDistanceOfBoxesAndHullsAgree) {
  // A hull made of a box's corners has the box's signed distance.
  ShapeFactory f(7);
  for (int i = 0; i < 200; ++i) {
    const Shape box = f.Make(ShapeKind::kObb);
    const Obb& g = std::get<Obb>(box);
    std::vector<Vec3> corners;
    for (int c = 0; c < 8; ++c) {
      Vec3 l{(c & 1 ? 1 : -1) * g.half_extents.x, (c & 2 ? 1 : -1) * g.half_extents.y,
             (c & 4 ? 1 : -1) * g.half_extents.z};
      corners.push_back(g.center + g.rotation * l);
    }
    const RefShape rb(box), rh(ConvexHull{corners});
    EXPECT_EQ(rh.Dimension(), 3);
    for (int j = 0; j < 20; ++j) {
      const Vec3 p = f.Position();
      EXPECT_NEAR(rb.SurfaceDistance(p), rh.SurfaceDistance(p), 1e-12) << Describe(p);
    }
  }
}

TEST(ReferenceTest, FlatAndDegenerateDistances) {
  const RefShape tri(Triangle{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}});
  EXPECT_DOUBLE_EQ(tri.SurfaceDistance({0.5, 0.5, 3}), 3.0);
  EXPECT_DOUBLE_EQ(tri.SurfaceDistance({-1, 0.5, 0}), 1.0);
  EXPECT_EQ(tri.Dimension(), 2);
  const RefShape seg(Triangle{{0, 0, 0}, {2, 0, 0}, {1, 0, 0}});
  EXPECT_EQ(seg.Dimension(), 1);
  EXPECT_DOUBLE_EQ(seg.SurfaceDistance({3, 0, 0}), 1.0);
  const RefShape flat_box(Aabb{{0, 0, 0}, {1, 1, 0}});
  EXPECT_EQ(flat_box.Dimension(), 2);
  EXPECT_DOUBLE_EQ(flat_box.SurfaceDistance({0.5, 0.5, 0}), 0.0);
  EXPECT_DOUBLE_EQ(flat_box.SurfaceDistance({0.5, 0.5, -2}), 2.0);
  const std::vector<Vec3> square = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}};
  const RefShape flat_hull(ConvexHull{square});
  EXPECT_EQ(flat_hull.Dimension(), 2);
  EXPECT_DOUBLE_EQ(flat_hull.SurfaceDistance({0.9, 0.9, 0.5}), 0.5);
  EXPECT_DOUBLE_EQ(flat_hull.SurfaceDistance({2, 0.5, 0}), 1.0);
  const std::vector<Vec3> line = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
  EXPECT_EQ(RefShape(ConvexHull{line}).Dimension(), 1);
  const RefShape cap(Capsule{{0, 0, 0}, {0, 0, 2}, 0.5});
  EXPECT_DOUBLE_EQ(cap.SurfaceDistance({0, 0, 1}), -0.5);
  EXPECT_DOUBLE_EQ(cap.SurfaceDistance({0, 0, 3}), 0.5);
}

TEST(ReferenceTest, SignedDistanceMatchesClosedForms) {
  ShapeFactory f(11);
  double worst_apart_boxes = 0.0, worst_capsules = 0.0;
  for (int i = 0; i < 300; ++i) {
    // Spheres: |c2 - c1| - r1 - r2, apart or overlapping.
    const Sphere s1{f.Position() * 0.5, f.Size()}, s2{f.Position() * 0.5, f.Size()};
    const RefSignedDistance ref = ReferenceSignedDistance(RefShape(s1), RefShape(s2));
    EXPECT_NEAR(ref.distance, Length(s2.center - s1.center) - s1.radius - s2.radius, 1e-12);
    // Aabbs: the largest per-axis signed separation when overlapping
    // (exact: the axes are candidates), the norm of the positive ones when
    // apart (found by the local search).
    const Vec3 c1 = f.Position() * 0.5, c2 = f.Position() * 0.5;
    const Vec3 h1{f.Size(), f.Size(), f.Size()}, h2{f.Size(), f.Size(), f.Size()};
    const Aabb b1{c1 - h1, c1 + h1}, b2{c2 - h2, c2 + h2};
    const Vec3 sep = Abs(c2 - c1) - h1 - h2;
    const double largest = std::max({sep.x, sep.y, sep.z});
    const double box_ref = ReferenceSignedDistance(RefShape(b1), RefShape(b2)).distance;
    if (largest <= 0) {
      EXPECT_NEAR(box_ref, largest, 1e-14) << Describe(b1) << " " << Describe(b2);
    } else {
      const double expected = Length(Max(sep, {}));
      EXPECT_LE(box_ref, expected + 1e-14);  // always a lower bound.
      worst_apart_boxes = std::max(worst_apart_boxes, (expected - box_ref) / expected);
    }
    // Capsules: segment distance minus the radii.
    const Capsule k1{f.Position(), f.Position(), 0.5 * f.Size()},
        k2{f.Position(), f.Position(), 0.5 * f.Size()};
    const double cap_expected = SegmentSegmentDistance(k1.a, k1.b, k2.a, k2.b) - k1.radius - k2.radius;
    const double cap_ref = ReferenceSignedDistance(RefShape(k1), RefShape(k2)).distance;
    EXPECT_LE(cap_ref, cap_expected + 1e-12);
    worst_capsules = std::max(worst_capsules, cap_expected - cap_ref);
  }
  // Separated polytopes: only a lower bound (see reference.h); print how
  // far off it is. Capsules go through the exact core decomposition.
  std::printf("worst relative error, apart boxes %g; worst absolute error, capsules %g\n", worst_apart_boxes,
              worst_capsules);
  EXPECT_LT(worst_apart_boxes, 0.05);
  EXPECT_LT(worst_capsules, 1e-12);
}

// The random pair sets produce a usable share of hits for every pair (the
// invariants test guards it per set too, with the kernels' answers).
TEST(ReferenceTest, PairSetsHaveBalancedHitRates) {
  for (int a = 0; a < kShapeKindCount; ++a) {
    for (int b = 0; b < kShapeKindCount; ++b) {
      if (a == 8 && b == 8) continue;
      for (PairSet set : kAllPairSets) {
        if (set == PairSet::kTouching) continue;
        ShapeFactory f(a * 16 + b);
        const double band = 1e-9 * PairSetScale(set);
        int hits = 0;
        const int n = 50;
        for (int i = 0; i < n; ++i) {
          const auto [sa, sb] = f.MakePair(static_cast<ShapeKind>(a), static_cast<ShapeKind>(b), set);
          if (ReferenceSignedDistance(RefShape(sa), RefShape(sb), 100).distance <= band) ++hits;
        }
        const double rate = static_cast<double>(hits) / n;
        EXPECT_GE(rate, 0.1) << ShapeKindName(static_cast<ShapeKind>(a)) << "-"
                             << ShapeKindName(static_cast<ShapeKind>(b)) << " " << PairSetName(set);
        EXPECT_LE(rate, 0.9) << ShapeKindName(static_cast<ShapeKind>(a)) << "-"
                             << ShapeKindName(static_cast<ShapeKind>(b)) << " " << PairSetName(set);
      }
    }
  }
}

TEST(ReferenceTest, TouchingPairsTouch) {
  for (int a = 0; a < kShapeKindCount; ++a) {
    for (int b = 0; b < kShapeKindCount; ++b) {
      if (a == 8 && b == 8) continue;
      ShapeFactory f(a * 16 + b + 500);
      for (int i = 0; i < 40; ++i) {
        const auto [sa, sb] =
            f.MakePair(static_cast<ShapeKind>(a), static_cast<ShapeKind>(b), PairSet::kTouching);
        const RefShape ra(sa), rb(sb);
        // Lower bound from the search, upper bound from the common point.
        EXPECT_LE(ReferenceSignedDistance(ra, rb, 100).distance, 1e-12)
            << Describe(sa) << " " << Describe(sb);
        if (a != 8 && b != 8) {
          EXPECT_GE(ReferenceSignedDistance(ra, rb, 100).distance, -1e-12)
              << Describe(sa) << " " << Describe(sb);
        }
      }
    }
  }
}

}  // namespace
}  // namespace collide::testing
