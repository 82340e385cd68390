// Ray casts against the round shapes: analytic cases (side, caps, grazing,
// parallel to the axis, inside, max_distance, degenerate shapes, scales) and
// seeded random checks against a long-double reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "collide/query.h"
#include "core/segment_reference.h"
#include "query/kernels_round.h"
#include "support/case_count.h"
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

// Regression: a point met along an oblique direction has no surface normal;
// the offset of the hit point from it is round-off, which gave (-1, 0, 0)
// for (2, 5, 5) and +u itself for (3, 5, 3). The normal is -u.
TEST(RayCastPointTest, ObliqueHitNormalIsMinusDirection) {
  for (const Vec3 p : {Vec3{2, 5, 5}, Vec3{3, 5, 3}, Vec3{1, 2, 2}}) {
    const RayHit h = RayCastPoint({{0, 0, 0}, p}, Point{p});
    ExpectHit(h, Length(p), p, -p / Length(p), 1e-14, 3e-16);
  }
}

TEST(RayCastSegmentTest, HitOnlyWhenCrossingExactly) {
  const Segment s{{-1, 0, 0}, {1, 0, 0}};
  // Normal: perpendicular to the segment, facing the ray origin.
  ExpectHit(RayCastSegment({{0.5, 0, -2}, {0, 0, 1}}, s), 2, {0.5, 0, 0}, {0, 0, -1});
  ExpectHit(RayCastSegment({{0.5, -1, -1}, {0, 1, 1}}, s), std::sqrt(2.0), {0.5, 0, 0},
            Vec3{0, -1, -1} / std::sqrt(2.0));
  // Crossing the segment obliquely: -u's part perpendicular to the segment
  // (the radius-0 limit), not the round-off of the hit point's offset.
  ExpectHit(RayCastSegment({{0.5, -5, -3}, {0.2, 5, 3}}, s), std::sqrt(34.04), {0.7, 0, 0},
            Vec3{0, -5, -3} / std::sqrt(34.0), 1e-14, 3e-16);
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

// Regression: origins 2.8e-17 and 1.1e-16 outside the side (by a long-double
// reference) heading in were missed: a closest-point test called them
// outside, the cylinder frame inside the infinite cylinder, and the cast
// went on to the end ball, which the ray misses. They hit within 1e-15.
TEST(RayCastCapsuleTest, OriginOnTheSideByRoundOffHeadingInHits) {
  struct Case {
    Ray ray;
    Capsule capsule;
  };
  const Case cases[] = {
      {{{-0.96777846143503965, -1.9346843908925544, -0.013802558906324494},
        {-0.13043979888325569, 0.10219156892705028, 0.16472746342057598}},
       {{-1.6618848861962081, -0.18854720378839618, -2.0740389558964987},
        {-0.49006530566840678, -3.3365786442288718, 2.1486480352714454},
        0.19209742751748027}},
      {{{0.24084478543265969, -0.25741417706134506, 1.0645882176734331},
        {-0.3795097843187708, 0.16475254118846835, 0.13320427038052829}},
       {{-4.5626661508811628, -2.1166901487196732, -4.7820522344293632},
        {0.68104884046882752, 0.29701489897140942, 2.3750778133278594},
        0.46010971586427551}},
  };
  for (const Case& c : cases) {
    const long double out =
        testing::RefPointSegment(c.ray.origin, c.capsule.a, c.capsule.b) - c.capsule.radius;
    ASSERT_GT(out, 0.0L);  // the origin is outside, by round-off.
    ASSERT_LT(out, 2e-16L);
    const RayHit h = RayCastCapsule(c.ray, c.capsule);
    ASSERT_TRUE(h.hit);
    EXPECT_LE(h.distance, 1e-15);
    ExpectVecNear(h.point, c.ray.origin, 1e-15);
    EXPECT_LT(Dot(h.normal, c.ray.direction), 0.0);  // faces the origin.
  }
}

// The same on a seeded set: origins on the side or a cap, moved off the
// surface by up to a few ulps either way, heading in, hit at once.
TEST(RayCastCapsuleTest, OriginsOnTheSurfaceHeadingInAlwaysHit) {
  testing::ShapeFactory f(7, /*extent=*/5.0);
  const int n = testing::CaseCount(20000);
  for (int i = 0; i < n; ++i) {
    const Capsule c{f.UnitVector() * f.Uniform(0, 5), f.UnitVector() * f.Uniform(0, 5), f.Uniform(0.01, 3)};
    const Vec3 w = (c.b - c.a) / Length(c.b - c.a);
    const double s = f.Uniform(-0.2, 1.2);  // beyond the ends: a cap.
    const Vec3 core = c.a + (c.b - c.a) * std::clamp(s, 0.0, 1.0);
    Vec3 out = f.UnitVector();
    if (s > 0 && s < 1) out = out - w * Dot(out, w);
    const Vec3 origin = core + out * (c.radius / Length(out) * (1 + f.Uniform(-4, 4) * 1e-16));
    // Aimed within ~27 degrees of the inward normal: the entry is at most
    // ~1.2 times the origin's round-off offset (~1e-15 here) away.
    const Ray ray{origin, core + w * (c.radius * f.Uniform(-0.5, 0.5)) - origin};
    const RayHit h = RayCastCapsule(ray, c);
    ASSERT_TRUE(h.hit) << "case " << i;
    ASSERT_LE(h.distance, 1e-14) << "case " << i;
  }
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
