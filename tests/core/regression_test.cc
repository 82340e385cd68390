// One named test per kernel bug the verification tests found: the minimal
// input, the expected answer and why; a failure names the bug.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "collide/query.h"
#include "support/random_shapes.h"
#include "support/reference.h"

namespace collide {
namespace {

using testing::Describe;

// Expects `ok`; a failure names the bug it brings back.
#define EXPECT_NOT_BUG(ok, bug, message) EXPECT_TRUE(ok) << "bug " << (bug) << " is back: " << (message)

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
  EXPECT_NOT_BUG(r.point_a == (Vec3{0, 0, 0}) && r.point_b == (Vec3{0, 0, 0}), "distance-common-point",
                      "expected both points (0,0,0), got " + Result(r));
}

// A small sphere inside a big one: the common point must lie in the small one.
TEST(RegressionTest, DistanceSphereInsideSphereGivesAPointInBoth) {
  const Sphere small{{0, 0, 0}, 0.1}, big{{0, 0, 0.5}, 1.0};
  const PairResult r = Distance(small, big);
  ASSERT_TRUE(r.hit);
  const testing::RefShape ra(small), rb(big);
  EXPECT_NOT_BUG(
      r.point_a == r.point_b && ra.Distance(r.point_a) <= 1e-12 && rb.Distance(r.point_a) <= 1e-12,
      "distance-common-point", "expected a point within 0.1 of the origin, got " + Result(r));
}

// Bug box-touching-hit: a sphere touching an Aabb's corner (the touching pair
// set) reports distance 0 but no hit.
TEST(RegressionTest, BoxTouchingSphereDistanceZeroMeansHit) {
  const Sphere sphere{{-0.099598706873258891, -0.19916341955488998, -0.12302963863013333},
                      0.15345321546624333};
  const Aabb box{{-1.8138997729879898, -0.062264357892547029, -0.60444627334113255},
                 {-0.15462626322934481, 1.0047511961284141, -0.16520195531272874}};
  for (QueryLevel level : {QueryLevel::kDistance, QueryLevel::kContact}) {
    const PairResult r = Query(level, sphere, box);
    EXPECT_NOT_BUG(r.hit == (r.distance <= 0), "box-touching-hit",
                        "hit must be exactly distance <= 0, got " + Result(r));
  }
}

// The deepest points of a kContact result are points of their shapes.
void ExpectWitnessesOnShapes(const Shape& a, const Shape& b, const char* bug) {
  const PairResult r = Contact(a, b);
  ASSERT_TRUE(r.hit);
  const testing::RefShape ra(a), rb(b);
  const double sa = ra.SurfaceDistance(r.point_a), sb = rb.SurfaceDistance(r.point_b);
  EXPECT_NOT_BUG(std::fabs(sa) <= 1e-9 && std::fabs(sb) <= 1e-9, bug,
                      "point_a " + std::to_string(sa) + " and point_b " + std::to_string(sb) +
                          " from their shapes' surfaces, got " + Result(r));
}

// Bug box-contact-witness (fixed): two Obbs face to face (the parallel pair
// set). An edge axis equal to the face axis won the SAT by an ulp, and the
// edge-edge witness put one deepest point on the other box's support plane
// but outside its face.
TEST(RegressionTest, ObbObbFaceContactWitnessesOnTheShapes) {
  const Obb a{{-0.1402993161142691, -0.069801875007663494, 0.096366077961092922},
              {{{-0.99175682456161007, 0.11455785504323268, 0.057401208901602496},
                {0.10388921900521275, 0.45668063306271212, 0.88354390358370283},
                {0.075002874011324994, 0.88222406294168498, -0.46481746057641504}}},
              {0.3348576177777241, 0.50124462515012291, 0.43135768372916028}};
  const Obb b{{0.049311483782940993, 0.22908049560007138, 0.66402320190914588},
              {{{-0.075002874011324994, -0.88222406294168498, 0.46481746057641504},
                {0.99175682456161007, -0.11455785504323268, -0.057401208901602496},
                {0.10388921900521275, 0.45668063306271212, 0.88354390358370283}}},
              {0.84451188497280683, 0.40794124066195991, 0.61218774066228387}};
  ExpectWitnessesOnShapes(a, b, "box-contact-witness");
}

// Bug box-contact-witness (fixed): a capsule whose axis is parallel to an
// Obb face; the same cause as above in the capsule-box contact kernel.
TEST(RegressionTest, CapsuleObbParallelContactWitnessesOnTheShapes) {
  const Capsule a{{0.095556688869308196, -0.26485672343214667, -0.64018509076601715},
                  {0.29609562449618926, 0.63607923978321734, 0.37259467446718825},
                  0.30962803340241235};
  const Obb b{{0.017376658665868461, 0.0016216779426172501, -0.21753974957557198},
              {{{-0.39809197599969831, 0.72313201607681732, -0.56444917040361853},
                {0.90559609962874976, 0.21162738919313989, -0.36757251322765006},
                {-0.14635054827998165, -0.65749063527017082, -0.73911269881539443}}},
              {0.96381934375819089, 0.29883716147550088, 0.66976593182914934}};
  ExpectWitnessesOnShapes(a, b, "box-contact-witness");
}

// Bug epa-contact-witness: a triangle parallel to an Aabb face, overlapping
// it (answered by the GJK/EPA fallback).
TEST(RegressionTest, AabbTriangleFaceContactWitnessesOnTheShapes) {
  const Aabb a{{-0.45938083347877218, -0.63207125851306356, -0.35473965231759624},
               {0.13021106059998394, 1.0971760033576761, 0.32250050742026565}};
  const Triangle b{{-0.50368099433489455, 1.8733530668891658, 0.22920983918364141},
                   {-0.11354018951981286, 1.2397414944169238, 0.22920983918364141},
                   {-0.33230286848627977, 0.96110322524787217, 0.22920983918364141}};
  ExpectWitnessesOnShapes(a, b, "epa-contact-witness");
}

}  // namespace
}  // namespace collide
