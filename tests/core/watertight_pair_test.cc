// CertainMissPair (query/raycast/watertight.h), the two-lane SSE2 form of the
// watertight test's first decision that the mesh leaf loop uses to skip
// triangles: a triangle it marks is one IntersectWatertight misses, in either
// lane, on generic, edge-grazing, vertex-aimed, huge and tiny inputs.
#include <gtest/gtest.h>

#include <random>

#include "collide/shapes.h"
#include "query/raycast/watertight.h"
#include "support/case_count.h"

namespace collide::testing {
namespace {

using internal::CertainMissPair;
using internal::IntersectWatertight;

TEST(CertainMissPair, MarksOnlyTrianglesTheWatertightTestMisses) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> u(-1.0, 1.0), w(0.0, 1.0);
  const auto point = [&](double s) { return Vec3{u(rng), u(rng), u(rng)} * s; };
  int marked = 0, hits = 0;
  const int cases = CaseCount(20000);
  for (int c = 0; c < cases; ++c) {
    const double scale = c % 5 == 3 ? 1e9 : (c % 5 == 4 ? 1e-6 : 1.0);
    Vec3 v[2][3];
    for (auto& tri : v)
      for (Vec3& p : tri) p = point(scale);
    if (c % 3 == 1) v[1][0] = v[0][1], v[1][1] = v[0][0];  // a shared edge.
    const Vec3 origin = point(3 * scale);
    // Aimed at triangle 0: a vertex, a point of an edge, or inside.
    const double s = w(rng), t = w(rng) * (1 - s);
    const Vec3& a = v[0][0];
    Vec3 target = a + (v[0][1] - a) * s + (v[0][2] - a) * t;
    if (c % 4 == 0) target = v[0][c % 3];
    if (c % 4 == 1) target = a + (v[0][1] - a) * s;
    const Vec3 direction = c % 6 == 5 ? point(1.0) : target - origin;
    if (LengthSquared(direction) == 0.0) continue;
    const internal::WatertightRay r = internal::SetUpWatertightRay(origin, direction);
    const Vec3* pa[2] = {&v[0][0], &v[1][0]};
    const Vec3* pb[2] = {&v[0][1], &v[1][1]};
    const Vec3* pc[2] = {&v[0][2], &v[1][2]};
    const int mask = CertainMissPair(r, pa, pb, pc);
    for (int k = 0; k < 2; ++k) {
      const bool hit = IntersectWatertight(r, v[k][0], v[k][1], v[k][2], kInfinity).hit;
      const bool miss_marked = (mask >> k & 1) != 0;
      ASSERT_FALSE(hit && miss_marked) << "case " << c << " lane " << k;
      marked += miss_marked, hits += hit;
    }
    // Lanes are independent: triangle 0 in both gives the same answer twice.
    const Vec3* qa[2] = {pa[0], pa[0]};
    const Vec3* qb[2] = {pb[0], pb[0]};
    const Vec3* qc[2] = {pc[0], pc[0]};
    const int twice = CertainMissPair(r, qa, qb, qc);
    ASSERT_EQ(twice, (mask & 1) * 3) << "case " << c;
  }
  // Both outcomes are common, so the checks above were not vacuous.
  EXPECT_GT(marked, cases / 4);
  EXPECT_GT(hits, cases / 4) << marked;
}

}  // namespace
}  // namespace collide::testing
