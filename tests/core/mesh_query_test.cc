// Overlap, distance and contact of every shape kind against a mesh, against
// brute force over every triangle with the pair kernels (Query with a
// Triangle).
#include <gtest/gtest.h>

#include <algorithm>

#include "collide/mesh.h"
#include "collide/query.h"
#include "support/case_count.h"
#include "support/random_shapes.h"
#include "support/synthetic_meshes.h"

namespace collide::testing {
namespace {

constexpr ShapeKind kKinds[] = {ShapeKind::kPoint,    ShapeKind::kSegment,    ShapeKind::kSphere,
                                ShapeKind::kCapsule,  ShapeKind::kAabb,       ShapeKind::kObb,
                                ShapeKind::kTriangle, ShapeKind::kConvexHull, ShapeKind::kHalfspace};

bool Queryable(const Triangle& t) { return Cross(t.b - t.a, t.c - t.a) != Vec3{}; }

struct Named {
  const char* name;
  MeshData data;
  double extent;  // shapes are placed in [-extent, extent]^3 around the center.
  Vec3 center;
};

std::vector<Named> Meshes() {
  return {{"soup", MakeSoup(200, 2.0, 0.6, 21), 2.5, {0, 0, 0}},
          {"terrain", MakeTerrain(12, 8.0, 22), 4.5, {4, 4, 0.5}},
          {"boxes", MakeBoxes(25, 6.0, 23), 3.5, {3, 3, 3}},
          {"sphere", MakeClosedSphere(5, 2.0, {0.5, 0, 0}), 2.5, {0.5, 0, 0}}};
}

class MeshQueryTest : public ::testing::TestWithParam<ShapeKind> {};

TEST_P(MeshQueryTest, MatchesBruteForce) {
  const ShapeKind kind = GetParam();
  int hits = 0, total = 0;
  for (const Named& m : Meshes()) {
    const TriangleMesh mesh(m.data);
    ShapeFactory f(31 + static_cast<int>(kind), m.extent, 1.0);
    const int n = CaseCount(150);
    for (int i = 0; i < n; ++i) {
      Shape shape = f.Translated(f.Make(kind), m.center);
      // Points hit only on the surface: a third of them at mesh vertices.
      if (kind == ShapeKind::kPoint && i % 3 == 0) shape = Point{m.data.vertices[i % m.data.vertices.size()]};
      SCOPED_TRACE(::testing::Message() << m.name << " case " << i << ": " << Describe(shape));
      // Brute force.
      std::vector<std::uint32_t> overlapping;
      PairResult closest, deepest;
      std::uint32_t closest_id = 0, deepest_id = 0;
      bool any = false;
      for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
        const Triangle tri = mesh.triangle(t);
        if (!Queryable(tri)) continue;
        const std::uint32_t id = static_cast<std::uint32_t>(t);
        if (Intersect(shape, tri).hit) overlapping.push_back(id);
        const PairResult d = Distance(shape, tri), c = Contact(shape, tri);
        if (!any || d.distance < closest.distance) closest = d, closest_id = id;
        if (!any || c.distance < deepest.distance) deepest = c, deepest_id = id;
        any = true;
      }
      ++total;
      hits += !overlapping.empty();
      std::vector<std::uint32_t> got;
      const std::size_t count = OverlapTriangles(mesh, shape, 1000, got);
      ASSERT_EQ(count, overlapping.size());
      ASSERT_EQ(got, overlapping);
      std::vector<std::uint32_t> capped;
      EXPECT_EQ(OverlapTriangles(mesh, shape, 3, capped), overlapping.size());
      EXPECT_EQ(capped,
                std::vector<std::uint32_t>(
                    overlapping.begin(), overlapping.begin() + std::min<std::size_t>(3, overlapping.size())));
      const MeshPairResult hit = QueryMesh(QueryLevel::kIntersect, shape, mesh);
      EXPECT_EQ(hit.result.hit, !overlapping.empty());
      if (hit.result.hit) {
        EXPECT_TRUE(std::count(overlapping.begin(), overlapping.end(), hit.triangle));
      }
      // Distance: the same distance; the same triangle or an equally close one.
      const MeshPairResult dist = QueryMesh(QueryLevel::kDistance, shape, mesh);
      ASSERT_TRUE(dist.found);
      EXPECT_EQ(dist.result.distance, closest.distance);
      EXPECT_EQ(dist.result.hit, closest.hit);
      EXPECT_EQ(Distance(shape, mesh.triangle(dist.triangle)).distance, closest.distance);
      if (!closest.hit) {
        EXPECT_EQ(dist.triangle, closest_id);
      }
      // Contact: the deepest (smallest signed distance) triangle.
      const MeshPairResult contact = QueryMesh(QueryLevel::kContact, shape, mesh);
      ASSERT_TRUE(contact.found);
      EXPECT_EQ(contact.result.distance, deepest.distance);
      EXPECT_EQ(contact.triangle, deepest_id);
      EXPECT_EQ(contact.result, Contact(shape, mesh.triangle(contact.triangle)));
    }
  }
  // Not all-miss, not all-hit (a halfspace hits everything it can reach). The
  // 10% floor holds for the full Release count; the sanitizers' tenth (15 per
  // mesh) is too few to hold a rate, only to be non-empty.
  EXPECT_GT(hits, testing::kSanitized ? 0 : total / 10);
  if (kind != ShapeKind::kHalfspace) {
    EXPECT_LT(hits, total);
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, MeshQueryTest, ::testing::ValuesIn(kKinds),
                         [](const auto& info) { return std::string(ShapeKindName(info.param)); });

TEST(MeshQuery, EmptyMeshFindsNothing) {
  const TriangleMesh mesh(MeshData{});
  std::vector<std::uint32_t> out{1, 2};
  EXPECT_EQ(OverlapTriangles(mesh, Sphere{{0, 0, 0}, 1}, 10, out), 0u);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(QueryMesh(QueryLevel::kDistance, Sphere{{0, 0, 0}, 1}, mesh).found);
  EXPECT_FALSE(QueryMesh(QueryLevel::kContact, Sphere{{0, 0, 0}, 1}, mesh).found);
}

}  // namespace
}  // namespace collide::testing
