// Mesh ray casts (closest, any, all) against brute force over every triangle
// with RayCast(ray, Triangle), and watertightness on closed meshes and
// grid-aligned edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "collide/mesh.h"
#include "collide/query.h"
#include "support/case_count.h"
#include "support/random_shapes.h"
#include "support/synthetic_meshes.h"

namespace collide::testing {
namespace {

// What the mesh should answer, from every non-degenerate triangle.
struct Brute {
  std::vector<std::pair<double, std::uint32_t>> hits;  // (distance, triangle), sorted.
};
Brute BruteRay(const TriangleMesh& mesh, const Ray& ray) {
  Brute b;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle t = mesh.triangle(i);
    if (Cross(t.b - t.a, t.c - t.a) == Vec3{}) continue;  // zero area: out of queries.
    const RayHit h = RayCast(ray, t);
    if (h.hit) b.hits.push_back({h.distance, static_cast<std::uint32_t>(i)});
  }
  std::sort(b.hits.begin(), b.hits.end());
  return b;
}

void CheckRay(const TriangleMesh& mesh, const Ray& ray, const char* what, int index) {
  SCOPED_TRACE(::testing::Message() << what << " ray " << index << ": " << Describe(ray));
  const Brute b = BruteRay(mesh, ray);
  const MeshRayHit closest = RayCastClosest(mesh, ray);
  ASSERT_EQ(closest.hit, !b.hits.empty());
  const MeshRayHit any = RayCastAny(mesh, ray);
  ASSERT_EQ(any.hit, !b.hits.empty());
  ASSERT_EQ(RayBlocked(mesh, ray), !b.hits.empty());
  std::vector<MeshRayHit> all;
  const std::size_t total = RayCastAll(mesh, ray, 5, all);
  ASSERT_EQ(total, b.hits.size());
  ASSERT_EQ(all.size(), std::min<std::size_t>(5, b.hits.size()));
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].distance, b.hits[i].first);
    EXPECT_EQ(all[i].triangle, b.hits[i].second);
  }
  if (b.hits.empty()) return;
  // Same first distance (the same kernel on the same triangle is bitwise
  // equal), same first triangle (ties: smallest index), same hit fields.
  EXPECT_EQ(closest.distance, b.hits[0].first);
  EXPECT_EQ(closest.triangle, b.hits[0].second);
  const RayHit ref = RayCast(ray, mesh.triangle(closest.triangle));
  EXPECT_EQ(closest.point, ref.point);
  EXPECT_EQ(closest.normal, ref.normal);
  EXPECT_LE(Dot(closest.normal, ray.direction), 0.0);
  // Any: a triangle that the brute force hits.
  EXPECT_TRUE(
      std::any_of(b.hits.begin(), b.hits.end(), [&](const auto& h) { return h.second == any.triangle; }));
}

// Rays from a cube around the mesh to points near or on it: random
// directions, at vertices, at edge midpoints; half with a finite range.
std::vector<Ray> RaysAround(const MeshData& data, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ShapeFactory f(seed);
  Aabb b{data.vertices[0], data.vertices[0]};
  for (const Vec3& v : data.vertices) b.min = Min(b.min, v), b.max = Max(b.max, v);
  const Vec3 c = (b.min + b.max) * 0.5, h = (b.max - b.min) * 0.6 + Vec3{1e-3, 1e-3, 1e-3};
  std::vector<Ray> rays;
  for (int i = 0; i < count; ++i) {
    const Vec3 o = c + Vec3{h.x * f.Uniform(-1, 1), h.y * f.Uniform(-1, 1), h.z * f.Uniform(-1, 1)};
    const TriangleIndices& t = data.triangles[rng() % data.triangles.size()];
    Vec3 target;
    switch (i % 4) {
      case 0:
        target = data.vertices[t[0]];
        break;
      case 1:
        target = (data.vertices[t[0]] + data.vertices[t[1]]) * 0.5;
        break;
      case 2:
        target = (data.vertices[t[0]] + data.vertices[t[1]] + data.vertices[t[2]]) / 3.0;
        break;
      default:
        target = c + f.UnitVector() * Length(h);
        break;
    }
    Vec3 d = target - o;
    if (d == Vec3{}) d = {0, 0, 1};
    const double range = i % 2 == 0 ? kInfinity : Length(d) * f.Uniform(0.3, 1.5);
    rays.push_back({o, d, range});
  }
  return rays;
}

void CheckMesh(const MeshData& data, int rays, const char* what) {
  const TriangleMesh mesh(data);
  int hits = 0, index = 0;
  for (const Ray& ray : RaysAround(data, CaseCount(rays), 7)) {
    CheckRay(mesh, ray, what, index++);
    if (::testing::Test::HasFatalFailure()) return;
    hits += RayCastAny(mesh, ray).hit;
  }
  // Not all-miss nor all-hit.
  EXPECT_GT(hits, index / 5) << what;
  EXPECT_LT(hits, index) << what;
}

TEST(MeshRayCast, MatchesBruteForceOnRandomSoup) { CheckMesh(MakeSoup(300, 2.0, 0.5, 1), 2000, "soup"); }
TEST(MeshRayCast, MatchesBruteForceOnTerrain) { CheckMesh(MakeTerrain(16, 10.0, 2), 2000, "terrain"); }
TEST(MeshRayCast, MatchesBruteForceOnBoxes) { CheckMesh(MakeBoxes(40, 10.0, 3), 2000, "boxes"); }
TEST(MeshRayCast, MatchesBruteForceOnClosedSphere) {
  CheckMesh(MakeClosedSphere(6, 3.0, {1, 2, 3}), 2000, "sphere");
}
TEST(MeshRayCast, MatchesBruteForceAtLargeAndTinyScales) {
  CheckMesh(MakeSoup(200, 1e6, 3e5, 4), 500, "soup 1e6");
  CheckMesh(MakeSoup(200, 1e-6, 3e-7, 5), 500, "soup 1e-6");
}

// A ray from inside a closed mesh hits it whatever its direction, and rays
// aimed exactly at the shared vertices (and through shared edges) from
// inside or from outside never slip between triangles.
TEST(MeshRayCast, ClosedMeshIsWatertight) {
  const Vec3 center{0.25, -0.5, 0.125};
  const MeshData data = MakeClosedSphere(12, 2.0, center);
  const TriangleMesh mesh(data);
  ShapeFactory f(11);
  const int n = CaseCount(20000);
  for (int i = 0; i < n; ++i) {
    const Vec3 inside = center + f.UnitVector() * f.Uniform(0, 1.5);
    const TriangleIndices& t = data.triangles[static_cast<std::size_t>(i) % data.triangles.size()];
    const Vec3 target = i % 3 == 0   ? data.vertices[t[0]]
                        : i % 3 == 1 ? data.vertices[t[1]] * 0.5 + data.vertices[t[2]] * 0.5
                                     : center + f.UnitVector();
    const Ray from_inside{inside, target - inside};
    ASSERT_TRUE(RayCastAny(mesh, from_inside).hit) << Describe(from_inside);
    ASSERT_TRUE(RayCastClosest(mesh, from_inside).hit) << Describe(from_inside);
    // From outside through the vertex or edge point towards the inside.
    const Vec3 outside = target + (target - inside) * 3.0;
    const Ray from_outside{outside, inside - outside};
    ASSERT_TRUE(RayCastClosest(mesh, from_outside).hit) << Describe(from_outside);
    // Pointing away from the sphere from outside its bounds: never a hit.
    const Ray away{center + (target - center) * 2.0, target - center};
    ASSERT_FALSE(RayCastAny(mesh, away).hit) << Describe(away);
  }
}

// Vertical rays through exact grid vertices and grid edges of a terrain
// (edges shared by two or more triangles) always hit it.
TEST(MeshRayCast, TerrainGridEdgesAndVerticesNeverLeak) {
  const int cells = 32;
  const MeshData data = MakeTerrain(cells, 64.0, 5);  // grid step 2: exact coordinates.
  const TriangleMesh mesh(data);
  ShapeFactory f(12);
  const int n = CaseCount(20000);
  for (int i = 0; i < n; ++i) {
    const double gx = 2.0 * static_cast<int>(f.Uniform(0, cells + 1));
    const double gy = 2.0 * static_cast<int>(f.Uniform(0, cells + 1));
    const double along = f.Uniform(0, 64.0);
    const Vec3 o =
        i % 3 == 0 ? Vec3{gx, gy, 100} : (i % 3 == 1 ? Vec3{gx, along, 100} : Vec3{along, gy, 100});
    const Ray down{o, {0, 0, -1}};
    ASSERT_TRUE(RayCastClosest(mesh, down).hit) << Describe(down);
    const Ray up{{o.x, o.y, -100}, {0, 0, 1}};
    ASSERT_TRUE(RayCastAny(mesh, up).hit) << Describe(up);
    // Slanted from above the footprint to a grid vertex or edge point at the
    // bottom of the height range: it crosses the surface on the way.
    const Vec3 start{f.Uniform(0, 64), f.Uniform(0, 64), 200};
    const Ray slanted{start, Vec3{o.x, o.y, 0} - start};
    ASSERT_TRUE(RayCastClosest(mesh, slanted).hit) << Describe(slanted);
  }
}

TEST(MeshRayCast, EmptyAndDegenerateMeshesNeverHit) {
  MeshData data;
  const TriangleMesh empty(data);
  EXPECT_FALSE(RayCastClosest(empty, {{0, 0, 0}, {1, 0, 0}}).hit);
  data.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  data.triangles = {{0, 1, 2}, {0, 0, 1}};
  const TriangleMesh flat(data);
  EXPECT_EQ(flat.degenerate_count(), 2u);
  EXPECT_FALSE(RayCastAny(flat, {{1, 1, 0}, {0, -1, 0}}).hit);
}

}  // namespace
}  // namespace collide::testing
