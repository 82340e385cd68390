// Issue 14 class 4: RayCast(ray, Triangle) on rays parallel or nearly
// parallel to the triangle's plane, against an exact rational (GMP) reference
// (tests/support/near_parallel_rays.h). Hit flags must agree exactly on
// every certified case; a ray exactly in the plane follows the coplanar rule
// (result.h): it hits where it enters the closed triangle.
#include <gtest/gtest.h>

#include <cmath>

#include "collide/mesh.h"
#include "collide/query.h"
#include "support/case_count.h"
#include "support/near_parallel_rays.h"
#include "support/random_shapes.h"

namespace collide::testing {
namespace {

class NearParallelRayTest : public ::testing::TestWithParam<NearParallelClass> {};

TEST_P(NearParallelRayTest, HitFlagsMatchTheExactReference) {
  const NearParallelClass c = GetParam();
  const std::vector<RayTriangleCase> cases =
      MakeNearParallelCases(c, CaseCount(2000), 1400 + static_cast<int>(c));
  int uncertain = 0, hits = 0, checked = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const RayTriangleCase& k = cases[i];
    const ReferenceRayTriangle ref = ReferenceRayCast(k.ray, k.triangle);
    if (!ref.certain) {
      ++uncertain;
      continue;
    }
    ++checked;
    const RayHit hit = RayCast(k.ray, k.triangle);
    ASSERT_EQ(hit.hit, ref.hit) << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle);
    if (!hit.hit) continue;
    ++hits;
    // The normal faces the ray (for coplanar rays: the entry edge's in-plane
    // normal, perpendicular to the ray, to rounding, when it runs along the
    // edge).
    EXPECT_LE(Dot(hit.normal, k.ray.direction) / Length(k.ray.direction), 1e-12) << "case " << i;
    // Distance: a grazing ray's t has condition number 1 / sin(angle to the
    // plane), so the tolerance is 64 eps * scale / sin(angle), at least
    // 64 eps * scale (the coplanar and well-conditioned cases).
    const Vec3 n = Cross(k.triangle.b - k.triangle.a, k.triangle.c - k.triangle.a);
    const double sin_angle = std::fabs(Dot(n, k.ray.direction)) / (Length(n) * Length(k.ray.direction));
    const double tol = 64 * 0x1p-53 * k.scale / std::max(sin_angle, 1e-300) + 64 * 0x1p-53 * k.scale;
    const double err = std::fabs(hit.distance - ref.distance);
    worst = std::max(worst, err / tol);
    EXPECT_LE(err, ref.coplanar ? 64 * 0x1p-53 * k.scale * 8 : tol)
        << "case " << i << ": " << Describe(k.ray) << " " << Describe(k.triangle) << " ref " << ref.distance;
  }
  RecordProperty("worst_distance_error_over_tolerance", std::to_string(worst));
  // The reference decides nearly every case, and the set is not all-miss
  // (rays exactly parallel and off the plane: all must miss).
  EXPECT_LE(uncertain, checked / 100);
  if (c == NearParallelClass::kOffPlaneAxis) {
    EXPECT_EQ(hits, 0);
  } else if (c != NearParallelClass::kOffPlaneTilted) {
    EXPECT_GT(hits, checked / 10);
    EXPECT_LT(hits, checked);
  }
}

INSTANTIATE_TEST_SUITE_P(Classes, NearParallelRayTest, ::testing::ValuesIn(kAllNearParallelClasses),
                         [](const auto& info) { return std::string(NearParallelClassName(info.param)); });

// Named regressions: a ray 1e-12 above a unit triangle's plane, parallel to
// it, aimed across its middle (reported as hitting before the exact test).
TEST(NearParallelRayRegression, ParallelRayJustAboveThePlaneMisses) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  EXPECT_FALSE(RayCast({{-1, 0.25, 1e-12}, {1, 0, 0}}, t).hit);
  EXPECT_FALSE(RayCast({{-1, 0.25, -1e-12}, {1, 0, 0}}, t).hit);
  const Triangle tilted{{0, 0, 0}, {1, 0, 1e-3}, {0, 1, 2e-3}};
  EXPECT_FALSE(RayCast({{-1, 0.25, -1e-3 + 1e-12}, {1, 0, 1e-3}}, tilted).hit);
}

// The coplanar rule: in the plane, the ray hits where it enters the closed
// triangle, with the entry edge's outward normal; from inside, at 0.
TEST(NearParallelRayRegression, CoplanarRayHitsAtTheEntryEdge) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const RayHit entry = RayCast({{-1, 0.25, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(entry.hit);
  EXPECT_EQ(entry.distance, 1.0);
  EXPECT_EQ(entry.point, (Vec3{0, 0.25, 0}));
  EXPECT_EQ(entry.normal, (Vec3{-1, 0, 0}));
  const RayHit inside = RayCast({{0.25, 0.25, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(inside.hit);
  EXPECT_EQ(inside.distance, 0.0);
  EXPECT_EQ(inside.normal, (Vec3{-1, 0, 0}));
  EXPECT_FALSE(RayCast({{-1, 1.5, 0}, {1, 0, 0}}, t).hit);
  // Along the edge's line: meets the closed triangle at the vertex.
  const RayHit along = RayCast({{-2, 0, 0}, {1, 0, 0}}, t);
  ASSERT_TRUE(along.hit);
  EXPECT_EQ(along.distance, 2.0);
}

// core_fuzz found it: a ray with a tiny direction (|d| = 1e-9) meeting an
// edge exactly at max_distance = 1e12. Its t lies within t_max = 1e12 / |d|
// (rounded), and t * |d| rounded one ulp past max_distance: a hit's distance
// must never exceed max_distance, alone or in a mesh.
TEST(NearParallelRayRegression, HitAtMaxDistanceStaysWithinIt) {
  const double a = -0x1.d1a94a2p+39;
  const Triangle t{{a, a, 3}, {a, a, a}, {0x1.6a09e667f3bcdp-1, 0, 0}};
  const Ray ray{{a, 0, 0}, {0, -0x1.12e0be826d695p-30, 0}, -a};
  const RayHit hit = RayCast(ray, t);
  ASSERT_TRUE(hit.hit);
  EXPECT_LE(hit.distance, ray.max_distance);
  EXPECT_GE(hit.distance, std::nextafter(ray.max_distance, 0.0));
  const TriangleMesh mesh(MeshData{{t.a, t.b, t.c}, {{0, 1, 2}}});
  const MeshRayHit in_mesh = RayCastClosest(mesh, ray);
  ASSERT_TRUE(in_mesh.hit);
  EXPECT_EQ(in_mesh.distance, hit.distance);
}

}  // namespace
}  // namespace collide::testing
