// The collision categories on Debian's OpenArena maps: every brush hull is
// closed, lies on its brush's planes and holds exactly the points inside
// them (ray parity); the solid geometry holds the drawn geometry; collision
// patches are the game's coarse tessellation of the drawn surface; every map
// imports with every category.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bezier_patch.h"
#include "brush_hull.h"
#include "bsp_contents.h"
#include "bsp_file.h"
#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "collision_patch.h"
#include "gtest/gtest.h"
#include "import_test_util.h"
#include "mesh_builder.h"

namespace collide::importer {
namespace {

using ::collide::testing::kOpenArenaPak;
using ::collide::testing::ReadOpenArenaMap;

// A map without patches, one with many, one with clip brushes.
const std::vector<std::string> kMaps = {"aggressor", "oa_ctf2", "am_underworks2"};
constexpr CategoryMask kCollisionCategories = kAllCategories & ~MaskOf(Category::kRender);
// Units: how far a hull's corners may be off their planes (welded corners
// move by up to kBrushWeld).
constexpr double kOnPlane = 2 * kBrushWeld;

const CategoryStats& Of(const ImportedMesh& m, Category c) { return m.stats.categories[static_cast<int>(c)]; }

std::vector<BspPlane> SidesOf(const BspFile& bsp, const BspBrush& brush) {
  std::vector<BspPlane> planes;
  for (int k = 0; k < brush.num_sides; ++k)
    planes.push_back(bsp.planes[bsp.brush_side_planes[brush.first_side + k]]);
  return planes;
}

// Signed distance of p outside the brush: the largest over its sides, with
// unit normals.
double Outside(const std::vector<BspPlane>& planes, const Vec3& p) {
  double outside = -kInfinity;
  for (const BspPlane& plane : planes) {
    const double length = Length(plane.normal);
    outside = std::max(outside, (Dot(plane.normal, p) - plane.dist) / length);
  }
  return outside;
}

TEST(BrushHulls, EveryBrushIsAClosedHullOnItsPlanesHoldingWhatIsInside) {
  std::mt19937_64 rng(31);
  const Vec3 direction = NormalizedOr(Vec3{0.5773, 0.4132, 0.7034}, Vec3{});
  for (const std::string& name : kMaps) {
    SCOPED_TRACE(name);
    const absl::StatusOr<BspFile> bsp = ParseBsp(ReadOpenArenaMap(name), name);
    ASSERT_TRUE(bsp.ok());
    const BspModel& world = bsp->models[0];
    int hulls = 0, dropped = 0, inside = 0, outside = 0;
    double worst = 0;  // deepest triangle centre
    for (std::int32_t b = world.first_brush; b < world.first_brush + world.num_brushes; ++b) {
      const BspBrush& brush = bsp->brushes[b];
      if (CollisionCategories(bsp->shaders[brush.shader].flags.contents) == 0) continue;
      const std::vector<BspPlane> planes = SidesOf(*bsp, brush);
      const std::vector<std::array<Vec3, 3>> hull = BrushHull(planes);
      if (hull.empty()) {
        ++dropped;
        continue;
      }
      ++hulls;
      // Every triangle on the brush's boundary: its corners and its centre
      // within kOnPlane of the sides' planes, none outside.
      MeshBuilder builder(hull.size());
      Vec3 lo = hull[0][0], hi = lo;
      for (const std::array<Vec3, 3>& triangle : hull) {
        for (const Vec3& p : triangle) {
          ASSERT_LE(std::fabs(Outside(planes, p)), kOnPlane) << "brush " << b;
          lo = Min(lo, p);
          hi = Max(hi, p);
        }
        const Vec3 centre = (triangle[0] + triangle[1] + triangle[2]) / 3.0;
        worst = std::max(worst, -Outside(planes, centre));
        ASSERT_LE(std::fabs(Outside(planes, centre)), kOnPlane) << "brush " << b;
        builder.Triangle(builder.Vertex(triangle[0]), builder.Vertex(triangle[1]),
                         builder.Vertex(triangle[2]));
      }
      ImportStats unused;
      const MeshData mesh = std::move(builder).Finish(UpAxis::kZ, {}, unused);
      // Watertight and consistently wound: each directed edge once, and its
      // reverse once.
      std::set<std::pair<std::uint32_t, std::uint32_t>> directed;
      for (const TriangleIndices& t : mesh.triangles) {
        for (int k = 0; k < 3; ++k)
          ASSERT_TRUE(directed.insert({t[k], t[(k + 1) % 3]}).second) << "brush " << b;
      }
      for (const auto& [from, to] : directed) ASSERT_TRUE(directed.contains({to, from})) << "brush " << b;
      // Wound counter-clockwise seen from outside: positive volume.
      double volume = 0;
      for (const TriangleIndices& t : mesh.triangles) {
        const Vec3 &a = mesh.vertices[t[0]], &o = mesh.vertices[mesh.triangles[0][0]];
        volume += Dot(a - o, Cross(mesh.vertices[t[1]] - o, mesh.vertices[t[2]] - o)) / 6;
      }
      ASSERT_GT(volume, 0) << "brush " << b;
      // Ray parity against the hull's mesh agrees with the planes for points
      // clear of the surface: the centroid and random points of the box.
      const TriangleMesh built(mesh);
      Vec3 centroid{};
      for (const Vec3& v : mesh.vertices) centroid = centroid + v / static_cast<double>(mesh.vertices.size());
      std::vector<Vec3> points = {centroid};
      std::uniform_real_distribution<double> unit(-0.1, 1.1);
      for (int k = 0; k < 8; ++k) {
        const Vec3 size = hi - lo;
        points.push_back(lo + Vec3{size.x * unit(rng), size.y * unit(rng), size.z * unit(rng)});
      }
      std::vector<MeshRayHit> hits;
      for (const Vec3& p : points) {
        const double d = Outside(planes, p);
        if (std::fabs(d) < 0.01) continue;
        const bool in = (RayCastAll(built, {p, direction}, 64, hits) % 2) == 1;
        ASSERT_EQ(in, d < 0) << "brush " << b << " at distance " << d;
        ++(in ? inside : outside);
      }
      ASSERT_LT(Outside(planes, centroid), -0.01) << "brush " << b;
    }
    std::printf(
        "%s: %d brush hulls (%d dropped), triangle centres at most %.2g inside, parity checked at %d "
        "points inside, %d outside\n",
        name.c_str(), hulls, dropped, worst, inside, outside);
    EXPECT_GT(hulls, 200);
    EXPECT_EQ(dropped, 0);
  }
}

TEST(CollisionCategories, SolidHoldsTheDrawnGeometryAndClipIsThere) {
  for (const std::string& name : kMaps) {
    SCOPED_TRACE(name);
    const absl::StatusOr<ImportedMesh> m =
        ImportBspBytes(ReadOpenArenaMap(name), name, {.categories = kAllCategories});
    ASSERT_TRUE(m.ok()) << m.status();
    std::printf("%s:\n", name.c_str());
    for (int c = 0; c < kCategoryCount; ++c) {
      const CategoryStats& s = m->stats.categories[c];
      std::printf(
          "  %-12s %7llu triangles %5llu brushes (%llu dropped) %4llu patch faces  (%g %g %g)..(%g %g %g)\n",
          std::string(CategoryName(static_cast<Category>(c))).c_str(),
          static_cast<unsigned long long>(s.triangles), static_cast<unsigned long long>(s.brushes),
          static_cast<unsigned long long>(s.dropped_brushes), static_cast<unsigned long long>(s.patch_faces),
          s.min.x, s.min.y, s.min.z, s.max.x, s.max.y, s.max.z);
    }
    const CategoryStats &render = Of(*m, Category::kRender), &solid = Of(*m, Category::kSolid);
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_LE(solid.min[axis], render.min[axis] + 1.0) << axis;
      EXPECT_GE(solid.max[axis], render.max[axis] - 1.0) << axis;
    }
    EXPECT_GT(solid.brushes, 200u);
    EXPECT_EQ(solid.dropped_brushes, 0u);
    // Each brush or patch once in the union, whatever its categories.
    const absl::StatusOr<ImportedMesh> collision =
        ImportBspBytes(ReadOpenArenaMap(name), name, {.categories = kCollisionCategories});
    ASSERT_TRUE(collision.ok());
    EXPECT_EQ(m->mesh.triangles.size(), render.triangles + collision->mesh.triangles.size());
    EXPECT_LE(collision->mesh.triangles.size(),
              solid.triangles + Of(*m, Category::kPlayerClip).triangles + Of(*m, Category::kWater).triangles +
                  Of(*m, Category::kSlime).triangles + Of(*m, Category::kLava).triangles +
                  Of(*m, Category::kMonsterClip).triangles);
  }
  const absl::StatusOr<ImportedMesh> underworks =
      ImportBspBytes(ReadOpenArenaMap("am_underworks2"), "am_underworks2", {.categories = kPlayerCollision});
  ASSERT_TRUE(underworks.ok());
  EXPECT_GT(Of(*underworks, Category::kPlayerClip).brushes, 30u);
  EXPECT_GE(Of(*underworks, Category::kPlayerClip).triangles,
            Of(*underworks, Category::kPlayerClip).brushes * 4);
}

// Collision patches are the drawn surface at the game's coarse steps: each
// patch column and row takes the fewest halvings that bring its midpoint
// offset under 16 units; their corners are points of the drawn grid (steps
// up to 8) or within its chord error (0.7 units) of it; their triangles stay
// within kCollisionPatchTolerance of it.
TEST(CollisionPatches, AreTheDrawnSurfaceAtTheGamesCoarseSteps) {
  for (const std::string name : {"oa_ctf2", "am_underworks2"}) {
    SCOPED_TRACE(name);
    const absl::StatusOr<BspFile> bsp = ParseBsp(ReadOpenArenaMap(name), name);
    ASSERT_TRUE(bsp.ok());
    const BspModel& world = bsp->models[0];
    std::uint64_t faces = 0, collision_triangles = 0, render_triangles = 0;
    double farthest_corner = 0, farthest = 0;
    for (std::int32_t i = world.first_face; i < world.first_face + world.num_faces; ++i) {
      const BspFace& f = bsp->faces[i];
      if (f.type != kPatch || CollisionCategories(bsp->shaders[f.shader].flags.contents) == 0) continue;
      ++faces;
      const int w = f.patch_width, h = f.patch_height;
      const std::span<const Vec3> control(&bsp->vertices[f.first_vertex], w * h);
      const PatchSteps steps = CollisionPatchSteps(control, w, h);
      // Fewest halvings: the control rows' offsets for the columns.
      for (int s = 0; s < (w - 1) / 2; ++s) {
        double offset = 0;
        for (int r = 0; r < h; ++r) {
          const Vec3* p = &control[r * w + 2 * s];
          offset = std::max(offset, Length(p[0] - p[1] * 2.0 + p[2]) / 4);
        }
        const double n = steps.u[s];
        EXPECT_LT(offset / (n * n), kCollisionPatchTolerance) << "face " << i;
        if (n > 1) {
          EXPECT_GE(offset / (n * n / 4), kCollisionPatchTolerance) << "face " << i;
        }
      }
      const PatchGrid coarse = TessellatePatch(control, w, h, steps.u, steps.v);
      const PatchGrid fine = TessellatePatch(control, w, h, 8);
      collision_triangles += steps.Triangles();
      render_triangles += PatchTriangleCount(w, h, 8);
      MeshData drawn;
      drawn.vertices = fine.points;
      for (int r = 0; r + 1 < fine.rows; ++r) {
        for (int c = 0; c + 1 < fine.columns; ++c) {
          const std::uint32_t a = r * fine.columns + c, d = a + fine.columns;
          drawn.triangles.push_back({a, a + 1, d + 1});
          drawn.triangles.push_back({a, d + 1, d});
        }
      }
      const TriangleMesh surface(std::move(drawn));
      const auto distance = [&](const Vec3& p) {
        return QueryMesh(QueryLevel::kDistance, Point{p}, surface).result.distance;
      };
      const std::set<std::array<double, 3>> drawn_points = [&] {
        std::set<std::array<double, 3>> out;
        for (const Vec3& p : fine.points) out.insert({p.x, p.y, p.z});
        return out;
      }();
      const bool nested = *std::max_element(steps.u.begin(), steps.u.end()) <= 8 &&
                          *std::max_element(steps.v.begin(), steps.v.end()) <= 8;
      for (const Vec3& p : coarse.points) {
        if (nested) {
          ASSERT_TRUE(drawn_points.contains({p.x, p.y, p.z})) << "face " << i;
        }
        farthest_corner = std::max(farthest_corner, distance(p));
      }
      for (int r = 0; r + 1 < coarse.rows; ++r) {
        for (int c = 0; c + 1 < coarse.columns; ++c) {
          const Vec3 a = coarse.points[r * coarse.columns + c], b = coarse.points[r * coarse.columns + c + 1],
                     d = coarse.points[(r + 1) * coarse.columns + c],
                     e = coarse.points[(r + 1) * coarse.columns + c + 1];
          for (const Vec3& p :
               {(a + b + e) / 3.0, (a + e + d) / 3.0, (a + e) / 2.0, (a + b) / 2.0, (a + d) / 2.0}) {
            farthest = std::max(farthest, distance(p));
          }
        }
      }
    }
    std::printf(
        "%s: %llu collision patch faces, %llu triangles (drawn at 8x8: %llu); corners within %.3g, "
        "triangles within %.3g units of the drawn surface\n",
        name.c_str(), static_cast<unsigned long long>(faces),
        static_cast<unsigned long long>(collision_triangles),
        static_cast<unsigned long long>(render_triangles), farthest_corner, farthest);
    EXPECT_GT(faces, 40u);
    EXPECT_LT(collision_triangles * 4, render_triangles);
    EXPECT_LE(farthest_corner, 0.7);
    EXPECT_LT(farthest, kCollisionPatchTolerance);
  }
}

// Every map of the pak imports with every category (the brush work and
// triangle caps hold), and every brush but one (oa_thor's sides exclude
// each other) has a hull.
TEST(CollisionCategories, EveryMapImportsWithEveryCategory) {
  const absl::StatusOr<std::vector<std::string>> maps = ListPk3Maps(kOpenArenaPak);
  ASSERT_TRUE(maps.ok());
  std::uint64_t brushes = 0, dropped = 0;
  for (const std::string& name : *maps) {
    const absl::StatusOr<ImportedMesh> m =
        ImportBspBytes(ReadOpenArenaMap(name), name, {.categories = kAllCategories});
    ASSERT_TRUE(m.ok()) << m.status();
    // Occluders are solid brushes counted again.
    for (int c = 1; c < static_cast<int>(Category::kOccluder); ++c) {
      brushes += m->stats.categories[c].brushes;
      dropped += m->stats.categories[c].dropped_brushes;
    }
    EXPECT_GT(Of(*m, Category::kSolid).brushes, 100u) << name;
  }
  std::printf("%zu maps: %llu brush hulls, %llu dropped\n", maps->size(),
              static_cast<unsigned long long>(brushes), static_cast<unsigned long long>(dropped));
  EXPECT_EQ(dropped, 1u);
}

}  // namespace
}  // namespace collide::importer
