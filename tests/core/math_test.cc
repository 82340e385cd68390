#include "collide/math.h"

#include <gtest/gtest.h>

#include "support/random_shapes.h"

namespace collide {
namespace {

TEST(MathTest, RotationFromQuatIsOrthonormalAndRoundTrips) {
  testing::ShapeFactory f(1);
  for (int i = 0; i < 1000; ++i) {
    const Quat q = f.Rotation();
    const Mat3 r = RotationFromQuat(q);
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) EXPECT_NEAR(Dot(r.col[a], r.col[b]), a == b ? 1.0 : 0.0, 1e-14);
    }
    EXPECT_NEAR(Dot(Cross(r.col[0], r.col[1]), r.col[2]), 1.0, 1e-14);
    Quat back = QuatFromRotation(r);
    const double sign = (back.w * q.w + back.x * q.x + back.y * q.y + back.z * q.z) < 0 ? -1.0 : 1.0;
    EXPECT_NEAR(back.w * sign, q.w, 1e-12);
    EXPECT_NEAR(back.x * sign, q.x, 1e-12);
    EXPECT_NEAR(back.y * sign, q.y, 1e-12);
    EXPECT_NEAR(back.z * sign, q.z, 1e-12);
  }
}

TEST(MathTest, RotationFromQuatIsOrthonormalAtExtremeScales) {
  // core_fuzz found it: a quaternion of ~1e-160 (squares subnormal) gave a
  // matrix 1e-7 off orthonormal, so an OBB built from it passed validation
  // and its contact normals were not unit.
  testing::ShapeFactory f(2);
  for (const double scale : {1e-160, 1e-170, 1e-200, 1e-300, 4.9e-324 * 1e10, 1e160, 1e200, 1e300}) {
    for (int i = 0; i < 200; ++i) {
      const Quat u = f.Rotation();
      const Quat q{u.w * scale, u.x * scale, u.y * scale, u.z * scale};
      const Mat3 r = RotationFromQuat(q);
      const Mat3 expected = RotationFromQuat(u);
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
          ASSERT_NEAR(Dot(r.col[a], r.col[b]), a == b ? 1.0 : 0.0, 1e-14) << "scale " << scale;
        }
        // Components below 1e-308 lose bits when scaled: compare loosely there.
        ASSERT_LE(Length(r.col[a] - expected.col[a]), scale < 1e-300 ? 1e-5 : 1e-14) << "scale " << scale;
      }
    }
  }
  const Mat3 identity = RotationFromQuat({0, 0, 0, 0});
  EXPECT_EQ(identity.col[0], (Vec3{1, 0, 0}));
  EXPECT_EQ(RotationFromQuat({kInfinity, 0, 0, 0}).col[2], (Vec3{0, 0, 1}));
}

TEST(MathTest, QuarterTurnAboutZMapsXToY) {
  const double s = std::sqrt(0.5);
  const Mat3 r = RotationFromQuat({s, 0, 0, s});
  const Vec3 v = r * Vec3{1, 0, 0};
  EXPECT_NEAR(v.x, 0.0, 1e-15);
  EXPECT_NEAR(v.y, 1.0, 1e-15);
  EXPECT_NEAR(v.z, 0.0, 1e-15);
  const Vec3 back = TransposeMul(r, v);
  EXPECT_NEAR(back.x, 1.0, 1e-15);
}

TEST(MathTest, NormalizedOrFallsBackOnZero) {
  EXPECT_EQ(NormalizedOr({0, 0, 0}, {1, 0, 0}), (Vec3{1, 0, 0}));
  EXPECT_EQ(NormalizedOr({0, 3, 4}, {1, 0, 0}), (Vec3{0, 0.6, 0.8}));
}

TEST(MathTest, NormalizedOrIsUnitAtExtremeScales) {
  for (const double scale : {1e-320, 1e-300, 1e-160, 1e-9, 1.0, 1e150, 1e300}) {
    const Vec3 n = NormalizedOr(Vec3{3, -4, 12} * scale, {1, 0, 0});
    EXPECT_NEAR(Length(n), 1.0, 1e-15) << scale;
    if (scale > 1e-300) {  // 1e-320 * 3 is coarsely subnormal.
      EXPECT_NEAR(n.z, 12.0 / 13.0, 1e-15) << scale;
    }
  }
  EXPECT_EQ(NormalizedOr({kInfinity, 0, 0}, {0, 1, 0}), (Vec3{0, 1, 0}));
}

TEST(MathTest, AnyPerpendicularIsUnitAndPerpendicular) {
  testing::ShapeFactory f(2);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 n = f.UnitVector();
    const Vec3 p = AnyPerpendicular(n);
    EXPECT_NEAR(Length(p), 1.0, 1e-14);
    EXPECT_NEAR(Dot(p, n), 0.0, 1e-14);
  }
  EXPECT_NEAR(Length(AnyPerpendicular({0, 0, 1})), 1.0, 1e-15);
}

}  // namespace
}  // namespace collide
