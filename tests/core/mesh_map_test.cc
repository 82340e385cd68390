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

}  // namespace
}  // namespace collide::testing
