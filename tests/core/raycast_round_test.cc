// Ray casts against the round shapes: analytic cases (side, caps, grazing,
// parallel to the axis, inside, max_distance, degenerate shapes, scales) and
// seeded random checks against a long-double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "collide/query.h"
#include "core/segment_reference.h"
#include "query/kernels_round.h"
#include "support/random_shapes.h"

namespace collide::internal {
namespace {

void ExpectVecNear(const Vec3& a, const Vec3& b, double tol, const std::string& what = "") {
  EXPECT_NEAR(a.x, b.x, tol) << what;
  EXPECT_NEAR(a.y, b.y, tol) << what;
  EXPECT_NEAR(a.z, b.z, tol) << what;
}

void ExpectHit(const RayHit& h, double t, const Vec3& point, const Vec3& normal, double tol = 1e-14,
               double normal_tol = 1e-14) {
  EXPECT_EQ(h.status, QueryStatus::kOk);
  EXPECT_TRUE(h.hit);
  EXPECT_NEAR(h.distance, t, tol);
  ExpectVecNear(h.point, point, tol, "point");
  ExpectVecNear(h.normal, normal, normal_tol, "normal");
}

const RayHit kMiss{};

TEST(RayCastSphereTest, HitsFromOutsideWithNonUnitDirection) {
  const Sphere s{{1, 2, 3}, 2};
  ExpectHit(RayCastSphere({{1, 2, -10}, {0, 0, 5}}, s), 11, {1, 2, 1}, {0, 0, -1});
  // Oblique: from (1, 2 - 5, 3) towards the center, hits at distance 3.
  ExpectHit(RayCastSphere({{1, -3, 3}, {0, 0.1, 0}}, s), 3, {1, 0, 3}, {0, -1, 0});
}

TEST(RayCastSphereTest, Misses) {
  const Sphere s{{1, 2, 3}, 2};
  EXPECT_EQ(RayCastSphere({{1, 2, -10}, {0, 0, -1}}, s), kMiss);  // pointing away.
  EXPECT_EQ(RayCastSphere({{4, 2, -10}, {0, 0, 1}}, s), kMiss);   // passing by.
}

TEST(RayCastSphereTest, GrazingTouchIsAHit) {
  ExpectHit(RayCastSphere({{3, 2, -10}, {0, 0, 1}}, Sphere{{1, 2, 3}, 2}), 13, {3, 2, 3}, {1, 0, 0});
}

TEST(RayCastSphereTest, StartingInsideOrOnHitsAtZero) {
  const Sphere s{{1, 2, 3}, 2};
  const Vec3 dir{0, 1, 1};
  ExpectHit(RayCastSphere({{1, 2, 3.5}, dir}, s), 0, {1, 2, 3.5}, -dir / std::sqrt(2.0));
  ExpectHit(RayCastSphere({{1, 2, 5}, {0, 0, 1}}, s), 0, {1, 2, 5}, {0, 0, -1});  // on the surface.
  ExpectHit(RayCastSphere({{1, 2, 3}, {3, 0, 0}}, s), 0, {1, 2, 3}, {-1, 0, 0});  // at the center.
}

TEST(RayCastSphereTest, RespectsMaxDistance) {
  const Sphere s{{1, 2, 3}, 2};
  EXPECT_EQ(RayCastSphere({{1, 2, -10}, {0, 0, 1}, 10.9}, s), kMiss);
  ExpectHit(RayCastSphere({{1, 2, -10}, {0, 0, 1}, 11}, s), 11, {1, 2, 1}, {0, 0, -1});
  ExpectHit(RayCastSphere({{1, 2, 3}, {0, 0, 1}, 0}, s), 0, {1, 2, 3}, {0, 0, -1});  // inside, zero length.
}

TEST(RayCastSphereTest, HugeAndTinyScales) {
  for (const double k : {1e9, 1e-9}) {
    const RayHit h = RayCastSphere({Vec3{3, 4, -10} * k, {0, 0, 1}}, Sphere{Vec3{3, 4.5, 2} * k, 1 * k});
    // Enters where (z - 2)^2 + 0.25 = 1: z = 2 - sqrt(0.75).
    ExpectHit(h, (12 - std::sqrt(0.75)) * k, Vec3{3, 4, 2 - std::sqrt(0.75)} * k, {0, -0.5, -std::sqrt(0.75)},
              1e-14 * k + 1e-15);
    EXPECT_NEAR(h.normal.y, -0.5, 1e-12);
  }
}

// A direction whose squared length underflows still gives a unit direction
// and normal (regression for the normalization the round kernels share).
TEST(RayCastSphereTest, SubnormalDirection) {
  ExpectHit(RayCastSphere({{0, 0, -10}, {0, 0, 1e-200}}, Sphere{{0, 0, 0}, 2}), 8, {0, 0, -2}, {0, 0, -1});
  ExpectHit(RayCastCapsule({{5, 0, 2}, {-3e-170, 0, 0}}, Capsule{{0, 0, 0}, {0, 0, 4}, 1}), 4, {1, 0, 2},
            {1, 0, 0});
}

TEST(RayCastPointTest, HitOnlyWhenExactlyOnTheRay) {
  ExpectHit(RayCastPoint({{0, 0, 0}, {0, 0, 2}}, Point{{0, 0, 5}}), 5, {0, 0, 5}, {0, 0, -1});
  EXPECT_EQ(RayCastPoint({{0, 0, 0}, {0, 0, 2}}, Point{{0, 1e-12, 5}}), kMiss);
  EXPECT_EQ(RayCastPoint({{0, 0, 0}, {0, 0, -1}}, Point{{0, 0, 5}}), kMiss);
  ExpectHit(RayCastPoint({{1, 1, 1}, {0, 1, 0}}, Point{{1, 1, 1}}), 0, {1, 1, 1}, {0, -1, 0});
}

TEST(RayCastSegmentTest, HitOnlyWhenCrossingExactly) {
  const Segment s{{-1, 0, 0}, {1, 0, 0}};
  // Normal: perpendicular to the segment, facing the ray origin.
  ExpectHit(RayCastSegment({{0.5, 0, -2}, {0, 0, 1}}, s), 2, {0.5, 0, 0}, {0, 0, -1});
  ExpectHit(RayCastSegment({{0.5, -1, -1}, {0, 1, 1}}, s), std::sqrt(2.0), {0.5, 0, 0},
            Vec3{0, -1, -1} / std::sqrt(2.0));
  EXPECT_EQ(RayCastSegment({{0.5, 1e-9, -2}, {0, 0, 1}}, s), kMiss);
  EXPECT_EQ(RayCastSegment({{1.5, 0, -2}, {0, 0, 1}}, s), kMiss);
  // Along the segment's line: hits the near end.
  ExpectHit(RayCastSegment({{-3, 0, 0}, {4, 0, 0}}, s), 2, {-1, 0, 0}, {-1, 0, 0});
  ExpectHit(RayCastSegment({{0, 0, 0}, {0, 1, 0}}, s), 0, {0, 0, 0}, {0, -1, 0});  // starts on it.
}

const Capsule kCapsule{{0, 0, 0}, {0, 0, 4}, 1};

TEST(RayCastCapsuleTest, SideHit) {
  ExpectHit(RayCastCapsule({{5, 0, 2}, {-2, 0, 0}}, kCapsule), 4, {1, 0, 2}, {1, 0, 0});
  ExpectHit(RayCastCapsule({{0, -3, 0}, {0, 1, 0}}, kCapsule), 2, {0, -1, 0}, {0, -1, 0});  // at the seam.
}

TEST(RayCastCapsuleTest, CapHitsAlongTheAxis) {
  ExpectHit(RayCastCapsule({{0, 0, -5}, {0, 0, 1}}, kCapsule), 4, {0, 0, -1}, {0, 0, -1});
  ExpectHit(RayCastCapsule({{0, 0, 10}, {0, 0, -3}}, kCapsule), 5, {0, 0, 5}, {0, 0, 1});
}

TEST(RayCastCapsuleTest, ParallelToTheAxis) {
  const double h = std::sqrt(0.75);
  ExpectHit(RayCastCapsule({{0.5, 0, -5}, {0, 0, 1}}, kCapsule), 5 - h, {0.5, 0, -h}, {0.5, 0, -h});
  ExpectHit(RayCastCapsule({{0, -0.5, 9}, {0, 0, -1}}, kCapsule), 5 - h, {0, -0.5, 4 + h}, {0, -0.5, h});
  EXPECT_EQ(RayCastCapsule({{1.5, 0, -5}, {0, 0, 1}}, kCapsule), kMiss);
  EXPECT_EQ(RayCastCapsule({{1.5, 0, 2}, {0, 0, 1}}, kCapsule), kMiss);  // beside the body.
  // Grazing the cylinder: touches the cap ball's equator.
  ExpectHit(RayCastCapsule({{1, 0, -5}, {0, 0, 1}}, kCapsule), 5, {1, 0, 0}, {1, 0, 0});
}

TEST(RayCastCapsuleTest, EntersTheCylinderBeyondAnEnd) {
  // Along (-1, 0, 1) from (3, 0, -3): the cylinder x = 1 is reached at z = -1,
  // below the segment, then the ball at a at s = 3 - 1/sqrt(2).
  const double s = 3 - 1 / std::sqrt(2.0);
  const Vec3 p{3 - s, 0, -3 + s};
  ExpectHit(RayCastCapsule({{3, 0, -3}, {-1, 0, 1}}, kCapsule), s * std::sqrt(2.0), p, p, 1e-14);
  // Passing over the top: enters the cylinder above b, misses b's ball.
  EXPECT_EQ(RayCastCapsule({{5, 0, 5.5}, {-1, 0, 0}}, kCapsule), kMiss);
}

TEST(RayCastCapsuleTest, StartingInsideHitsAtZero) {
  ExpectHit(RayCastCapsule({{0.5, 0, 3}, {0, 2, 0}}, kCapsule), 0, {0.5, 0, 3}, {0, -1, 0});
  ExpectHit(RayCastCapsule({{0, 0, -1}, {0, 0, -1}}, kCapsule), 0, {0, 0, -1}, {0, 0, 1});  // on a cap.
}

TEST(RayCastCapsuleTest, RespectsMaxDistance) {
  EXPECT_EQ(RayCastCapsule({{5, 0, 2}, {-1, 0, 0}, 3.999}, kCapsule), kMiss);
  ExpectHit(RayCastCapsule({{5, 0, 2}, {-1, 0, 0}, 4}, kCapsule), 4, {1, 0, 2}, {1, 0, 0});
}

TEST(RayCastCapsuleTest, ZeroLengthCapsuleIsASphere) {
  testing::ShapeFactory f(5);
  for (int i = 0; i < 200; ++i) {
    const Vec3 c = f.Position();
    const double r = f.Size();
    const Ray ray = f.MakeRay();
    EXPECT_EQ(RayCastCapsule(ray, Capsule{c, c, r}), RayCastSphere(ray, Sphere{c, r}));
  }
}

TEST(RayCastCapsuleTest, HugeAndTinyScales) {
  for (const double k : {1e9, 1e-9}) {
    const Vec3 o = k > 1 ? Vec3{1e11, 2e11, -1e11} : Vec3{};
    const Capsule c{o + Vec3{0, 0, 0} * k, o + Vec3{0, 0, 4} * k, 1 * k};
    const double tol = 1e-14 * k + 1e-15 * Length(o) * 4;
    ExpectHit(RayCastCapsule({o + Vec3{5, 0, 2} * k, {-1, 0, 0}}, c), 4 * k, o + Vec3{1, 0, 2} * k, {1, 0, 0},
              tol);
    ExpectHit(RayCastCapsule({o + Vec3{0, 0, -5} * k, {0, 0, 1}}, c), 4 * k, o + Vec3{0, 0, -1} * k,
              {0, 0, -1}, tol);
  }
}

// Random rays against random capsules and spheres, against a reference: the
// ray hits iff the distance from the core to the ray (as a long segment) is
// at most r; a hit is on the surface, at origin + t*u, with the outward
// normal, and no earlier point of the ray is inside.
TEST(RayCastRoundTest, RandomAgainstReference) {
  testing::ShapeFactory f(99, /*extent=*/1.5);
  int hits = 0, inside = 0;
  constexpr int kCases = 6000;
  for (int i = 0; i < kCases; ++i) {
    const Shape shape = f.Make(i % 2 ? ShapeKind::kCapsule : ShapeKind::kSphere);
    Vec3 a, b;
    double r;
    if (const auto* c = std::get_if<Capsule>(&shape)) {
      a = c->a, b = c->b, r = c->radius;
    } else {
      const auto& s = std::get<Sphere>(shape);
      a = b = s.center, r = s.radius;
    }
    Ray ray = f.MakeRay();
    // Half the rays aim near the shape so that many hit.
    if (i % 4 < 2) ray.direction = (a + (b - a) * f.Uniform(0, 1) + f.UnitVector() * (2 * r)) - ray.origin;
    ray.direction = ray.direction * f.Uniform(0.1, 10);  // not unit.
    const Vec3 u = ray.direction / Length(ray.direction);
    const RayHit h = RayCast(ray, shape);
    const std::string at = "case " + std::to_string(i);
    const double miss_by =
        static_cast<double>(testing::RefSegmentSegment(ray.origin, ray.origin + u * 100, a, b)) - r;
    const double origin_depth = static_cast<double>(testing::RefPointSegment(ray.origin, a, b)) - r;
    if (miss_by > 1e-9) {
      ASSERT_EQ(h, kMiss) << at;
      continue;
    }
    if (miss_by < -1e-9) ASSERT_TRUE(h.hit) << at;
    if (!h.hit) continue;
    ++hits;
    ASSERT_NEAR(Length(h.normal), 1.0, 1e-12) << at;
    if (origin_depth <= 0) {
      ++inside;
      ASSERT_EQ(h.distance, 0.0) << at;
      ASSERT_EQ(h.point, ray.origin) << at;
      ExpectVecNear(h.normal, -u, 1e-15, at);
      continue;
    }
    ExpectVecNear(h.point, ray.origin + u * h.distance, 1e-12, at);
    ASSERT_NEAR(static_cast<double>(testing::RefPointSegment(h.point, a, b)), r, 1e-12) << at;
    // Outward normal: from the closest core point through the hit point.
    const Vec3 ab = b - a;
    const double t =
        LengthSquared(ab) > 0 ? std::clamp(Dot(h.point - a, ab) / LengthSquared(ab), 0.0, 1.0) : 0.0;
    ExpectVecNear(h.normal, (h.point - (a + ab * t)) / r, 1e-9, at);
    // The first hit: the ray before it is outside.
    for (int k = 0; k < 32; ++k) {
      const Vec3 p = ray.origin + u * (h.distance * k / 32.0);
      ASSERT_GT(static_cast<double>(testing::RefPointSegment(p, a, b)), r - 1e-12) << at << " sample " << k;
    }
  }
  EXPECT_GT(hits, kCases / 8);
  EXPECT_GT(inside, kCases / 200);
}

}  // namespace
}  // namespace collide::internal
