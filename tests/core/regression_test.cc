// One named test per kernel bug the verification tests found: the minimal
// input, the expected answer and why. A bug still listed in
// tests/support/known_bugs.h skips its test with a loud message instead of
// failing (it is reported and owned elsewhere); once fixed and unlisted the
// test must pass.
#include <gtest/gtest.h>

#include <string>

#include "collide/query.h"
#include "support/known_bugs.h"
#include "support/random_shapes.h"
#include "support/reference.h"

namespace collide {
namespace {

using testing::Describe;

// Passes, or skips loudly when `ok` is false and `bug` is a listed known bug.
#define EXPECT_OR_KNOWN_BUG(ok, bug, message)                                                     \
  do {                                                                                            \
    if (!(ok)) {                                                                                  \
      if (const testing::KnownBug* known = testing::FindKnownBug(bug)) {                          \
        GTEST_SKIP() << "KNOWN BUG " << known->id << " (reported, not fixed yet): " << (message); \
      }                                                                                           \
      ADD_FAILURE() << (message);                                                                 \
    }                                                                                             \
  } while (0)

std::string Result(const PairResult& r) {
  return "hit " + std::to_string(r.hit) + " distance " + std::to_string(r.distance) + " pa " +
         Describe(r.point_a) + " pb " + Describe(r.point_b);
}

// result.h: overlapping at kDistance, "both [points] equal one point that
// lies in A and in B". A point inside a sphere: the only common point is the
// point itself.
TEST(RegressionTest, DistancePointInsideSphereGivesThePoint) {
  const PairResult r = Distance(Point{{0, 0, 0}}, Sphere{{0, 0, 0.5}, 1.0});
  ASSERT_TRUE(r.hit);
  EXPECT_OR_KNOWN_BUG(r.point_a == (Vec3{0, 0, 0}) && r.point_b == (Vec3{0, 0, 0}), "distance-common-point",
                      "expected both points (0,0,0), got " + Result(r));
}

// A small sphere inside a big one: the common point must lie in the small one.
TEST(RegressionTest, DistanceSphereInsideSphereGivesAPointInBoth) {
  const Sphere small{{0, 0, 0}, 0.1}, big{{0, 0, 0.5}, 1.0};
  const PairResult r = Distance(small, big);
  ASSERT_TRUE(r.hit);
  const testing::RefShape ra(small), rb(big);
  EXPECT_OR_KNOWN_BUG(
      r.point_a == r.point_b && ra.Distance(r.point_a) <= 1e-12 && rb.Distance(r.point_a) <= 1e-12,
      "distance-common-point", "expected a point within 0.1 of the origin, got " + Result(r));
}

}  // namespace
}  // namespace collide
