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

// The first triangle met, by brute force over every queried triangle.
MeshSweepResult BruteForce(const TriangleMesh& mesh, const Shape& shape, const Vec3& v) {
  MeshSweepResult want;
  for (std::uint32_t id = 0; id < mesh.triangle_count(); ++id) {
    const Triangle tri = mesh.triangle(id);
    if (Cross(tri.b - tri.a, tri.c - tri.a) == Vec3{}) continue;  // zero-area: not queried.
    const SweepResult s = ShapeCast(shape, v, tri);
    if (s.hit && (!want.sweep.hit || s.t < want.sweep.t || (s.t == want.sweep.t && id < want.triangle))) {
      want = {s, id};
    }
  }
  return want;
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
      const MeshSweepResult want = BruteForce(mesh, shape, v);
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

// Shapes resting exactly on the boxes' top faces (grid-aligned: the gap is
// exactly 0) or a hair above them, sliding along the face, lifting off or
// pressing in: where the mesh sweep's per-triangle cull (the shape's box
// against each triangle's plane and box) works at its margin. Same answer
// as brute force.
TEST(MeshSweepTest, ShapesRestingOnFacesMatchBruteForce) {
  const MeshData data = testing::MakeBoxes(25, 6.0, 43);
  const TriangleMesh mesh(data);
  ShapeFactory f(77, 1.0, 0.5);
  int tops = 0, hits = 0;
  for (std::uint32_t id = 0; id < mesh.triangle_count() && tops < CaseCount(60); ++id) {
    const Triangle tri = mesh.triangle(id);
    if (tri.a.z != tri.b.z || tri.a.z != tri.c.z) continue;  // horizontal faces only.
    ++tops;
    const Vec3 mid = (tri.a + tri.b + tri.c) / 3.0;
    for (const double gap : {0.0, 1e-12, -1e-12}) {
      const double r = 0.2;
      const Shape shapes[] = {Sphere{mid + Vec3{0, 0, r + gap}, r},
                              Capsule{mid + Vec3{0, 0, r + gap}, mid + Vec3{0, 0, 1}, r},
                              Aabb{mid + Vec3{-0.1, -0.1, gap}, mid + Vec3{0.1, 0.1, 0.5}},
                              Segment{mid + Vec3{-0.3, 0, gap}, mid + Vec3{0.3, 0, gap}}};
      for (const Shape& shape : shapes) {
        for (const Vec3 v : {Vec3{1, 0.5, 0}, Vec3{0.5, 0, 1e-9}, Vec3{0, 0.7, -1e-9}, Vec3{0, 0, 0.5}}) {
          SCOPED_TRACE(::testing::Message()
                       << "triangle " << id << ": " << Describe(shape) << " v " << Describe(v));
          const MeshSweepResult want = BruteForce(mesh, shape, v), got = ShapeCast(shape, v, mesh);
          hits += want.sweep.hit;
          if (got.sweep.status != QueryStatus::kNotConverged) EXPECT_EQ(got, want);
        }
      }
    }
  }
  EXPECT_GE(tops, CaseCount(60));
  EXPECT_GT(hits, tops * 12);  // every resting or pressing shape hits at t = 0.
}

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
