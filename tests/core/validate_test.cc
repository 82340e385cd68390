#include "collide/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

namespace collide {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::IsEmpty;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> Fields(const std::vector<Violation>& v) {
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(x.field);
  return out;
}

TEST(ValidateTest, AcceptsDegenerateButFiniteShapes) {
  std::vector<Violation> out;
  EXPECT_TRUE(Validate(Shape{Sphere{{0, 0, 0}, 0.0}}, out));
  EXPECT_TRUE(Validate(Shape{Capsule{{1, 1, 1}, {1, 1, 1}, 0.5}}, out));
  EXPECT_TRUE(Validate(Shape{Aabb{{1, 2, 3}, {1, 2, 3}}}, out));
  EXPECT_TRUE(Validate(Shape{Obb{{0, 0, 0}, {}, {0, 0, 0}}}, out));
  EXPECT_TRUE(Validate(Shape{Triangle{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}, out));
  EXPECT_THAT(out, IsEmpty());
}

TEST(ValidateTest, NamesEveryBadField) {
  std::vector<Violation> out;
  EXPECT_FALSE(Validate(Sphere{{kNaN, 0, std::numeric_limits<double>::infinity()}, -1.0}, out));
  EXPECT_THAT(Fields(out), ElementsAre("center.x", "center.z", "radius"));
}

TEST(ValidateTest, RejectsInvertedBox) {
  std::vector<Violation> out;
  EXPECT_FALSE(Validate(Aabb{{0, 2, 0}, {1, 1, 1}}, out));
  EXPECT_THAT(Fields(out), ElementsAre("min.y"));
}

TEST(ValidateTest, RejectsHugeMagnitudes) {
  std::vector<Violation> out;
  EXPECT_FALSE(Validate(Point{{1e13, 0, 0}}, out));
  EXPECT_THAT(Fields(out), ElementsAre("position.x"));
}

TEST(ValidateTest, RejectsTinyNonZeroMagnitudesAndFlushTinyZeroesThem) {
  std::vector<Violation> out;
  EXPECT_FALSE(Validate(Sphere{{1e-60, 0, -0.0}, 4.9e-324}, out));
  EXPECT_THAT(Fields(out), ElementsAre("center.x", "radius"));
  EXPECT_EQ(out[0].description, "magnitude must be 0 or >= 1e-50, got 1e-60");
  EXPECT_TRUE(IsValid(Sphere{FlushTiny(Vec3{1e-60, 1e-50, -1e-51}), FlushTiny(4.9e-324)}));
  EXPECT_EQ(FlushTiny(Vec3{1e-60, 1e-50, -1e-51}), (Vec3{0, 1e-50, 0}));
}

TEST(ValidateTest, RejectsNonUnitQuaternionAndReflection) {
  std::vector<Violation> out;
  EXPECT_FALSE(ValidateRotation({1.0, 0.01, 0, 0}, "rotation", out));
  EXPECT_TRUE(ValidateRotation({1.0, 0, 0, 0}, "rotation", out));
  Obb mirrored{{0, 0, 0}, {}, {1, 1, 1}};
  mirrored.rotation.col[2] = {0, 0, -1};
  EXPECT_FALSE(Validate(mirrored, out));
  EXPECT_THAT(Fields(out), ElementsAre("rotation", "rotation"));
}

TEST(ValidateTest, HullVertexBounds) {
  std::vector<Violation> out;
  EXPECT_FALSE(Validate(ConvexHull{}, out));
  std::vector<Vec3> too_many(kMaxHullVertices + 1);
  EXPECT_FALSE(Validate(ConvexHull{too_many}, out));
  std::vector<Vec3> bad{{0, 0, 0}, {kNaN, 0, 0}};
  EXPECT_FALSE(Validate(ConvexHull{bad}, out));
  EXPECT_THAT(Fields(out), ElementsAre("vertices", "vertices", "vertices[1].x"));
}

TEST(ValidateTest, RayAndHalfspace) {
  std::vector<Violation> out;
  EXPECT_TRUE(Validate(Ray{{0, 0, 0}, {0, 0, 2}, kInfinity}, out));
  EXPECT_FALSE(Validate(Ray{{0, 0, 0}, {0, 0, 0}, -1.0}, out));
  EXPECT_FALSE(Validate(Halfspace{{0, 0, 2}, 0.0}, out));
  EXPECT_THAT(Fields(out), ElementsAre("direction", "max_distance", "normal"));
  EXPECT_THAT(out[0], Field(&Violation::description, "must be non-zero"));
}

}  // namespace
}  // namespace collide
