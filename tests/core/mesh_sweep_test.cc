// ShapeCast against a TriangleMesh (collide/mesh.h) against brute force over
// every queryable triangle: the smallest t of the pair sweeps, ties to the
// smallest index, must come back bit for bit (the traversal only decides
// which triangles it sweeps). Every moving kind, four meshes (soup, terrain,
// stacked boxes, closed sphere), long and short and zero translations.
#include <gtest/gtest.h>

#include <vector>

#include "collide/mesh.h"
#include "collide/sweep.h"
#include "support/case_count.h"
#include "support/random_shapes.h"
#include "support/synthetic_meshes.h"

namespace collide {
namespace {

using testing::CaseCount;
using testing::Describe;
using testing::ShapeFactory;

struct Named {
  const char* name;
  MeshData data;
  double extent;  // shapes start in [-extent, extent]^3 around the center.
  Vec3 center;
};

std::vector<Named> Meshes() {
  return {{"soup", testing::MakeSoup(200, 2.0, 0.6, 41), 2.5, {0, 0, 0}},
          {"terrain", testing::MakeTerrain(12, 8.0, 42), 4.5, {4, 4, 0.5}},
          {"boxes", testing::MakeBoxes(25, 6.0, 43), 3.5, {3, 3, 3}},
          {"sphere", testing::MakeClosedSphere(5, 2.0, {0.5, 0, 0}), 2.5, {0.5, 0, 0}}};
}

class MeshSweepTest : public ::testing::TestWithParam<ShapeKind> {};

TEST_P(MeshSweepTest, MatchesBruteForce) {
  const ShapeKind kind = GetParam();
  int hits = 0, total = 0;
  for (const Named& m : Meshes()) {
    const TriangleMesh mesh(m.data);
    ShapeFactory f(51 + static_cast<int>(kind), m.extent, 0.5);
    const int n = CaseCount(300);
    for (int i = 0; i < n; ++i) {
      const Shape shape = f.Translated(f.Make(kind), m.center);
      // Long casts across the mesh, short ones, and every tenth zero.
      const Vec3 v = i % 10 == 0 ? Vec3{} : f.UnitVector() * (m.extent * (i % 2 == 0 ? 2.0 : 0.3));
      SCOPED_TRACE(::testing::Message()
                   << m.name << " case " << i << ": " << Describe(shape) << " v " << Describe(v));
      MeshSweepResult want;
      for (std::uint32_t id = 0; id < mesh.triangle_count(); ++id) {
        const Triangle tri = mesh.triangle(id);
        if (Cross(tri.b - tri.a, tri.c - tri.a) == Vec3{}) continue;  // zero-area: not queried.
        const SweepResult s = ShapeCast(shape, v, tri);
        if (s.hit && (!want.sweep.hit || s.t < want.sweep.t || (s.t == want.sweep.t && id < want.triangle))) {
          want = {s, id};
        }
      }
      const MeshSweepResult got = ShapeCast(shape, v, mesh);
      ++total;
      hits += want.sweep.hit;
      if (got.sweep.status == QueryStatus::kNotConverged) continue;  // compared only when converged.
      EXPECT_EQ(got, want);
    }
  }
  // Hit-rate guard: both outcomes well represented.
  EXPECT_GE(hits, total / 10);
  EXPECT_LE(hits, total * 9 / 10);
}

INSTANTIATE_TEST_SUITE_P(AllMovingKinds, MeshSweepTest,
                         ::testing::Values(ShapeKind::kPoint, ShapeKind::kSegment, ShapeKind::kSphere,
                                           ShapeKind::kCapsule, ShapeKind::kAabb, ShapeKind::kObb,
                                           ShapeKind::kTriangle, ShapeKind::kConvexHull),
                         [](const auto& info) { return std::string(ShapeKindName(info.param)); });

TEST(MeshSweepTest, HalfspaceIsUnsupportedAndEmptyMeshMisses) {
  const TriangleMesh mesh(testing::MakeTerrain(4, 4.0, 1));
  EXPECT_EQ(ShapeCast(Halfspace{{0, 0, 1}, 0}, {1, 0, 0}, mesh).sweep.status, QueryStatus::kUnsupported);
  const TriangleMesh empty(MeshData{});
  EXPECT_FALSE(ShapeCast(Sphere{{0, 0, 0}, 1}, {1, 0, 0}, empty).sweep.hit);
  // A capsule dropped onto the terrain from above lands on it.
  const MeshSweepResult r = ShapeCast(Capsule{{2, 2, 5}, {2, 2, 6}, 0.25}, {0, 0, -10}, mesh);
  ASSERT_TRUE(r.sweep.hit);
  EXPECT_GT(r.sweep.t, 0.0);
  EXPECT_LT(r.sweep.normal.z, -0.5);  // from the capsule down into the ground.
}

}  // namespace
}  // namespace collide
