// Inputs found by tests/fuzz/core_fuzz.cc, kept as named regression tests
// (the fuzzer prints failing shapes as exact hex floats).
#include <gtest/gtest.h>

#include "collide/query.h"

namespace collide {
namespace {

void ExpectConsistent(const Shape& a, const Shape& b) {
  for (QueryLevel level : {QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult r = Query(level, a, b);
    EXPECT_EQ(r.hit, r.distance <= 0.0) << "level " << static_cast<int>(level) << " distance " << r.distance;
    if (level == QueryLevel::kContact) {
      EXPECT_NEAR(Length(r.normal), 1.0, 1e-12);
    }
    EXPECT_EQ(Query(level, b, a), r.Flipped());
  }
}

// A zero-size box (a point) exactly on an edge of a flat box: a rounded edge
// axis of the separating-axis test reported a gap while the exact closest
// points coincided, giving hit = false with distance 0 (now the smallest
// positive distance).
TEST(FuzzRegressionTest, PointBoxOnTheEdgeOfAFlatBox) {
  const Obb a{{0x1.8p+1, 0x1p+0, 0x1.8p+1}, {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {0x1.8p+1, 0x1p+2, 0}};
  const Obb b{{0, 0, 0x1.8p+1},
              {{{0x1.d89d89d89d898p-3, 0x1.3b13b13b13b14p-2, -0x1.d89d89d89d89fp-1},
                {-0x1.3b13b13b13b14p-2, 0x1.d89d89d89d89ep-1, 0x1.d89d89d89d89fp-3},
                {0x1.d89d89d89d89fp-1, 0x1.d89d89d89d89fp-3, 0x1.3b13b13b13b12p-2}}},
              {0, 0, 0}};
  ExpectConsistent(a, b);
  EXPECT_LE(Distance(a, b).distance, 1e-300);  // touching, to the last bit.
}

// A sphere whose centre is one radius from a point box up to the last bit:
// d^2 exceeded r^2 by an ulp while sqrt(d^2) - r rounded to 0.
TEST(FuzzRegressionTest, SphereTouchingAPointBoxToTheLastBit) {
  const double v = 0x1.000001ad7f29bp+0;
  const Sphere a{{v, v, v}, v};
  const Obb b{{v, 0, v},
              {{{0x1.ad7f2838p-24, 0x1.fffffffffffd4p-1, 0},
                {0, -0x1p-52, 0x1.0000000000001p+0},
                {0x1.fffffffffffd4p-1, -0x1.ad7f2844p-24, -0x1p-52}}},
              {0, 0, 0}};
  ExpectConsistent(a, b);
}

// A sphere or a point exactly on the far vertex of a needle triangle (two
// vertices 1e-33 apart at the origin, the third at 1e12): rounding put the
// centre in an edge region with a zero denominator, and the distance level
// returned NaN everywhere. The centre is on the triangle: distance 0.
TEST(FuzzRegressionTest, BallOnTheFarVertexOfANeedleTriangle) {
  const double t = 0x1.7313333303838p-108, k = 0x1.d1a94a2p+39;
  const Triangle a{{t, 0, 0}, {0, 0, t}, {k, k, k}};
  for (const Shape& b : {Shape(Sphere{{k, k, k}, 0x1.e848p+19}), Shape(Point{{k, k, k}})}) {
    ExpectConsistent(a, b);
    const PairResult r = Query(QueryLevel::kDistance, a, b);
    EXPECT_TRUE(r.hit);
    EXPECT_LE(r.distance, 0.0);
    EXPECT_EQ(r.point_a, (Vec3{k, k, k}));
  }
}

// A point 2e-161 off a flat box's face (a rotation entry of 1e-161): the
// squared gap is subnormal, and normalizing by its square root gave a contact
// normal of length 1.0000006.
TEST(FuzzRegressionTest, PointASubnormalSquaredGapOffAFlatBox) {
  const double e = 0x1.e9e9e9e9e9e23p-535, k = 0x1.d1a94a2p+39;
  const Obb a{{0, 0, 0}, {{{-1, -0.0, -e}, {0, 1, -0.0}, {e, 0, -1}}}, {0, k, k}};
  const Point b{{0, 0, 2}};
  ExpectConsistent(a, b);
  const PairResult r = Query(QueryLevel::kContact, a, b);
  EXPECT_FALSE(r.hit);
  EXPECT_GT(r.distance, 0.0);
  EXPECT_LT(r.distance, 1e-160);
  EXPECT_EQ(Length(r.normal), 1.0);
}

// A point segment 1e-161 off a flat box's face (rotation entries of 1e-137
// and 1e-146): the same subnormal squared gap in the segment-box kernel.
TEST(FuzzRegressionTest, PointSegmentASubnormalSquaredGapOffAFlatBox) {
  const double e1 = 0x1.cccccfe472967p-455, e2 = 0x1.eec7c0a331c73p-486, e3 = 0x1.45d5b7f3bc7dp-456;
  const Obb a{{0x1.203af9ee75616p-50, 0, 0},
              {{{-1, -e1, e2}, {-e1, 1, -e3}, {-e2, -e3, -1}}},
              {0x1.6a09e667f3bcdp-1, 2, 0}};
  const Segment b{{0, 0, 0}, {0, 0, 0}};
  ExpectConsistent(a, b);
  EXPECT_EQ(Length(Query(QueryLevel::kContact, a, b).normal), 1.0);
}

}  // namespace
}  // namespace collide
