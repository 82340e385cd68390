// Ray casts on a real map (OpenArena's aggressor, 3,249 triangles of
// grid-aligned brushes and patches): rays aimed exactly at map vertices and
// edge midpoints, where float ray tracers slip between triangles (mesh_bench
// counts Embree's misses), checked against brute force over every triangle
// and against the exact rational reference (near_parallel_rays.h) on the
// triangles around the target.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "collide/query.h"
#include "support/case_count.h"
#include "support/near_parallel_rays.h"
#include "support/random_shapes.h"
#include "support/watertight_rays.h"

namespace collide::testing {
namespace {

TEST(MeshMap, RaysAtVerticesAndEdgesMatchBruteForceAndTheExactReference) {
  importer::ImportOptions options;
  options.map = "aggressor";
  auto imported = importer::ImportMap("/usr/share/games/openarena/baseoa/pak6-patch088.pk3", options);
  ASSERT_TRUE(imported.ok()) << imported.status();
  const MeshData& data = imported->mesh;
  const TriangleMesh mesh(data);
  std::vector<Triangle> queryable(data.triangles.size());
  std::vector<bool> is_queryable(data.triangles.size());
  std::multimap<std::uint32_t, std::uint32_t> around;  // vertex -> triangles.
  for (std::uint32_t i = 0; i < data.triangles.size(); ++i) {
    queryable[i] = mesh.triangle(i);
    is_queryable[i] = Cross(queryable[i].b - queryable[i].a, queryable[i].c - queryable[i].a) != Vec3{};
    for (std::uint32_t v : data.triangles[i]) around.emplace(v, i);
  }
  std::mt19937_64 rng(16);
  ShapeFactory f(16);
  const int n = CaseCount(10000);
  int hits = 0, exact_checked = 0;
  for (int k = 0; k < n; ++k) {
    // From 16 units in front of a random surface, to a vertex of another
    // triangle (or the middle of one of its edges), and past it.
    const Triangle& from = queryable[rng() % queryable.size()];
    const Vec3 normal = NormalizedOr(Cross(from.b - from.a, from.c - from.a), {0, 0, 1});
    const Vec3 origin = (from.a + from.b + from.c) / 3.0 + normal * (k % 2 ? 16.0 : -16.0);
    const TriangleIndices& to = data.triangles[rng() % data.triangles.size()];
    const std::uint32_t vertex = to[rng() % 3];
    const Vec3 target =
        k % 3 == 2 ? (data.vertices[to[0]] + data.vertices[to[1]]) * 0.5 : data.vertices[vertex];
    if (target == origin) continue;
    const Ray ray{origin, target - origin, k % 4 == 0 ? Length(target - origin) : kInfinity};
    SCOPED_TRACE(::testing::Message() << "ray " << k << ": " << Describe(ray));
    // Brute force with the same exact kernel.
    double best = kInfinity;
    std::uint32_t best_id = 0;
    for (std::uint32_t i = 0; i < queryable.size(); ++i) {
      if (!is_queryable[i]) continue;
      const RayHit h = RayCast(ray, queryable[i]);
      if (h.hit && (h.distance < best)) best = h.distance, best_id = i;
    }
    const MeshRayHit hit = RayCastClosest(mesh, ray);
    ASSERT_EQ(hit.hit, best < kInfinity);
    if (!hit.hit) continue;
    ++hits;
    ASSERT_EQ(hit.distance, best);
    ASSERT_EQ(hit.triangle, best_id);
    // The exact reference agrees that the reported triangle is hit, there.
    const ReferenceRayTriangle ref = ReferenceRayCast(ray, queryable[hit.triangle]);
    if (ref.certain) {
      ++exact_checked;
      ASSERT_TRUE(ref.hit);
      EXPECT_NEAR(hit.distance, ref.distance, 1e-9 * (1 + ref.distance));
    }
    // No slip at the target: every triangle around the target vertex that the
    // exact reference says the ray meets is at or beyond the reported hit.
    if (k % 3 != 2) {
      for (auto [it, end] = around.equal_range(vertex); it != end; ++it) {
        if (!is_queryable[it->second]) continue;
        const ReferenceRayTriangle r = ReferenceRayCast(ray, queryable[it->second]);
        if (r.certain && r.hit) {
          EXPECT_LE(hit.distance, r.distance * (1 + 1e-12) + 1e-9);
        }
      }
    }
  }
  EXPECT_GT(hits, n / 2);
  EXPECT_GT(exact_checked, hits * 9 / 10);
}

// The checks of bench/mesh_watertight (a million rays per map, run by
// scripts/mesh-watertight.sh) on fewer rays: every kind of
// watertight_rays.h, judged against the exact answer. Closest hits at the
// exact nearest distance (1e-9), the reported triangle exactly hit there,
// and sight lines blocked exactly when the exact answer says so.
void CheckWatertightRays(const char* map, int count) {
  importer::ImportOptions options;
  options.map = map;
  auto imported = importer::ImportMap("/usr/share/games/openarena/baseoa/pak6-patch088.pk3", options);
  ASSERT_TRUE(imported.ok()) << imported.status();
  const TriangleMesh mesh(imported->mesh);
  const MeshRayReference reference(imported->mesh);
  EXPECT_EQ(reference.degenerate_count(), mesh.degenerate_count());
  int judged = 0, hits = 0;
  for (const WatertightRay& wr : MakeWatertightRays(imported->mesh, count, 16)) {
    const Ray& ray = wr.ray;
    SCOPED_TRACE(::testing::Message()
                 << map << " " << WatertightRayKindName(wr.kind) << " ray " << Describe(ray));
    const MeshRayReference::Answer ref = reference.Closest(ExtendedForJudging(ray));
    const MeshRayHit c = RayCastClosest(mesh, ray);
    const Verdict v = JudgeClosest(ref, ray, 1e-9, c.hit, c.distance);
    ASSERT_NE(v, Verdict::kMissed) << "exact nearest hit " << ref.distance << " on " << ref.triangle;
    ASSERT_NE(v, Verdict::kPhantom) << "exact nearest hit " << ref.distance << " on " << ref.triangle;
    judged += v == Verdict::kAgree;
    if (c.hit) {
      ++hits;
      const MeshRayReference::Answer own = reference.Single(ray, c.triangle);
      if (own.certain) {
        ASSERT_TRUE(own.hit) << "triangle " << c.triangle;
        ASSERT_NEAR(own.distance, c.distance, 1e-9 * (1 + c.distance));
      }
    }
    if (wr.kind == WatertightRayKind::kSight || wr.kind == WatertightRayKind::kSightGraze) {
      const bool blocked = RayBlocked(mesh, ray);
      ASSERT_EQ(blocked, RayCastAny(mesh, ray).hit);
      const Verdict b = JudgeBlocked(ref, ray, 1e-9, blocked);
      ASSERT_TRUE(b == Verdict::kAgree || b == Verdict::kUncertain);
    }
  }
  EXPECT_GT(judged, count * 99 / 100);
  EXPECT_GT(hits, count / 2);
  // The rays do go where signs are undecided in double: edges and vertices.
  EXPECT_GT(reference.exact_evaluations(), static_cast<std::uint64_t>(count / 10));
}

TEST(MeshMap, WatertightRaysOfEveryKindMatchTheExactAnswer) {
  CheckWatertightRays("aggressor", CaseCount(20000));
  CheckWatertightRays("am_underworks2", CaseCount(10000));
}

}  // namespace
}  // namespace collide::testing
