// Quake 3 maps from Debian's openarena-088-data through the importer: counts,
// bounds and indices, the conversion of every polygon face, the patch
// tessellation against de Casteljau and its watertightness across faces.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bezier_patch.h"
#include "brush_hull.h"
#include "bsp_file.h"
#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "import_test_util.h"

namespace collide::importer {
namespace {

using ::collide::testing::kOpenArenaPak;
using ::collide::testing::ReadOpenArenaMap;
using ::testing::Contains;

// Small maps of each kind: no patches, triangle soups, many patches.
const std::vector<std::string> kSmallMaps = {"aggressor", "oa_bases3", "am_lavactf", "ps37ctf2", "oa_ctf2"};

using Corners = std::array<std::array<double, 3>, 3>;
Corners SortedCorners(const Vec3& a, const Vec3& b, const Vec3& c) {
  Corners t = {{{a.x, a.y, a.z}, {b.x, b.y, b.z}, {c.x, c.y, c.z}}};
  std::sort(t.begin(), t.end());
  return t;
}

TEST(Pk3Maps, ListsEveryMapOfThePak) {
  const absl::StatusOr<std::vector<std::string>> maps = ListPk3Maps(kOpenArenaPak);
  ASSERT_TRUE(maps.ok()) << maps.status();
  EXPECT_EQ(maps->size(), 38u);  // unzip -l pak6-patch088.pk3 | grep -c 'maps/.*bsp'
  EXPECT_TRUE(std::is_sorted(maps->begin(), maps->end()));
  for (const std::string& m : kSmallMaps) EXPECT_THAT(*maps, Contains(m));
}

TEST(Pk3Maps, AMapIsNamedWithOrWithoutFolderAndExtension) {
  for (const std::string map : {"oa_bases3", "maps/oa_bases3.bsp", "OA_BASES3.bsp"}) {
    const absl::StatusOr<ImportedMesh> m = ImportMap(kOpenArenaPak, {.map = map});
    ASSERT_TRUE(m.ok()) << map << ": " << m.status();
    EXPECT_EQ(m->stats.entry, "maps/oa_bases3.bsp");
  }
}

TEST(Pk3Maps, ManyMapsWithoutMapNamesThemAll) {
  const absl::StatusOr<ImportedMesh> m = ImportMap(kOpenArenaPak);
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(std::string(m.status().message()),
              ::testing::HasSubstr("holds 38 maps, choose one with --map"));
  EXPECT_THAT(std::string(m.status().message()), ::testing::HasSubstr("oa_bases3"));
}

// Every collision face of the world arrives: each polygon/mesh triangle with
// its exact corner positions, each patch as 2 n^2 triangles per 3x3 patch;
// every index in range, bounds tight, stats adding up.
TEST(BspImport, SmallMapsImportEveryCollisionFace) {
  for (const std::string& name : kSmallMaps) {
    SCOPED_TRACE(name);
    const std::string bytes = ReadOpenArenaMap(name);
    const absl::StatusOr<ImportedMesh> m = ImportBspBytes(bytes, name);
    ASSERT_TRUE(m.ok()) << m.status();
    const absl::StatusOr<BspFile> bsp = ParseBsp(bytes, name);
    ASSERT_TRUE(bsp.ok()) << bsp.status();
    const MeshData& mesh = m->mesh;
    const ImportStats& s = m->stats;

    EXPECT_EQ(s.polygon_faces + s.mesh_faces + s.patch_faces + s.billboard_faces + s.nonsolid_faces +
                  s.brush_entity_faces,
              bsp->faces.size());
    ASSERT_GT(mesh.triangles.size(), 1000u);
    Vec3 lo = mesh.vertices.at(0), hi = lo;
    for (const Vec3& v : mesh.vertices) {
      ASSERT_TRUE(IsFinite(v));
      lo = Min(lo, v);
      hi = Max(hi, v);
    }
    EXPECT_EQ(lo, s.min);
    EXPECT_EQ(hi, s.max);
    EXPECT_LT(s.max.z - s.min.z, 10000.0);  // a level, in Quake units
    for (const TriangleIndices& t : mesh.triangles) {
      for (std::uint32_t i : t) ASSERT_LT(i, mesh.vertices.size());
    }

    std::multiset<Corners> imported;
    for (const TriangleIndices& t : mesh.triangles) {
      imported.insert(SortedCorners(mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]));
    }
    std::uint64_t expected = 0, patch_triangles = 0;
    const BspModel& world = bsp->models[0];
    for (std::int32_t i = world.first_face; i < world.first_face + world.num_faces; ++i) {
      const BspFace& f = bsp->faces[i];
      if (f.type == kBillboard || !CollidesWithPlayer(bsp->shaders[f.shader].flags)) continue;
      if (f.type == kPatch) {
        patch_triangles += 2 * 64 * ((f.patch_width - 1) / 2) * ((f.patch_height - 1) / 2);
        continue;
      }
      for (std::int32_t k = 0; k < f.num_meshverts; k += 3) {
        const auto at = [&](int j) {
          return bsp->vertices[f.first_vertex + bsp->meshverts[f.first_meshvert + k + j]];
        };
        ASSERT_GT(imported.count(SortedCorners(at(0), at(1), at(2))), 0u)
            << "face " << i << " triangle " << k / 3;
        ++expected;
      }
    }
    EXPECT_EQ(mesh.triangles.size(), expected + patch_triangles);
    EXPECT_EQ(patch_triangles, 2 * 64 * s.patches);

    // What the server does with it: valid, and every triangle queryable or
    // zero-area.
    std::vector<Violation> violations;
    EXPECT_TRUE(ValidateMesh(mesh, violations));
    const TriangleMesh built(mesh);
    EXPECT_EQ(built.invalid_count(), 0u);
    EXPECT_LT(built.degenerate_count(), mesh.triangles.size() / 20);
  }
}

TEST(BspImport, PatchSubdivisionsScaleOnlyThePatchTriangles) {
  const std::string bytes = ReadOpenArenaMap("oa_ctf2");
  const absl::StatusOr<ImportedMesh> fine = ImportBspBytes(bytes, "oa_ctf2", {.patch_subdivisions = 8});
  const absl::StatusOr<ImportedMesh> coarse = ImportBspBytes(bytes, "oa_ctf2", {.patch_subdivisions = 2});
  ASSERT_TRUE(fine.ok() && coarse.ok());
  ASSERT_GT(fine->stats.patches, 100u);
  EXPECT_EQ(fine->mesh.triangles.size() - coarse->mesh.triangles.size(), fine->stats.patches * 2 * (64 - 4));
  EXPECT_EQ(ImportBspBytes(bytes, "oa_ctf2", {.patch_subdivisions = 6}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Y up is (x, z, -y) of Z up, then scaled; the triangles are the same.
TEST(BspImport, YUpAndScaleTransformEveryVertex) {
  const std::string bytes = ReadOpenArenaMap("oa_bases3");
  const absl::StatusOr<ImportedMesh> z = ImportBspBytes(bytes, "oa_bases3");
  const absl::StatusOr<ImportedMesh> y =
      ImportBspBytes(bytes, "oa_bases3", {.up = UpAxis::kY, .scale = 0.03125});
  ASSERT_TRUE(z.ok() && y.ok());
  ASSERT_EQ(z->mesh.vertices.size(), y->mesh.vertices.size());
  EXPECT_EQ(z->mesh.triangles, y->mesh.triangles);
  for (std::size_t i = 0; i < z->mesh.vertices.size(); ++i) {
    const Vec3& a = z->mesh.vertices[i];
    ASSERT_EQ(y->mesh.vertices[i], (Vec3{a.x, a.z, -a.y} * 0.03125));
  }
  EXPECT_EQ(y->stats.max.y, z->stats.max.z * 0.03125);  // up is up
}

// A biquadratic Bezier point by de Casteljau in long double: an independent
// evaluation of the same surface.
Vec3 DeCasteljau(const Vec3* p, int w, long double u, long double v) {
  const auto lerp3 = [](const std::array<long double, 3>& a, long double t) {
    const long double x = a[0] + (a[1] - a[0]) * t, y = a[1] + (a[2] - a[1]) * t;
    return x + (y - x) * t;
  };
  Vec3 out;
  for (int axis = 0; axis < 3; ++axis) {
    std::array<long double, 3> rows;
    for (int j = 0; j < 3; ++j) rows[j] = lerp3({p[j * w][axis], p[j * w + 1][axis], p[j * w + 2][axis]}, u);
    out[axis] = static_cast<double>(lerp3(rows, v));
  }
  return out;
}

TEST(BezierPatch, GridPointsLieOnTheSurfaceAndCornersAreControlPoints) {
  const std::string bytes = ReadOpenArenaMap("oa_ctf2");
  const absl::StatusOr<BspFile> bsp = ParseBsp(bytes, "oa_ctf2");
  ASSERT_TRUE(bsp.ok());
  int checked = 0;
  for (const BspFace& f : bsp->faces) {
    if (f.type != kPatch) continue;
    const int n = 8, w = f.patch_width, h = f.patch_height;
    const Vec3* control = &bsp->vertices[f.first_vertex];
    const PatchGrid g = TessellatePatch(std::span<const Vec3>(control, w * h), w, h, n);
    ASSERT_EQ(g.points.size(), static_cast<std::size_t>(g.columns * g.rows));
    EXPECT_EQ(g.points.front(), control[0]);
    EXPECT_EQ(g.points[g.columns - 1], control[w - 1]);
    EXPECT_EQ(g.points.back(), control[w * h - 1]);
    for (int r = 0; r < g.rows; ++r) {
      for (int c = 0; c < g.columns; ++c) {
        const int px = std::min(c / n, (w - 3) / 2), py = std::min(r / n, (h - 3) / 2);
        const Vec3 want =
            DeCasteljau(control + 2 * py * w + 2 * px, w, (c - px * n) / 8.0L, (r - py * n) / 8.0L);
        const Vec3 got = g.points[r * g.columns + c];
        ASSERT_LE(Length(got - want), 1e-9 * (1.0 + Length(want))) << r << "," << c;
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 40);
}

// Patch faces that share a border curve (the same three control points, in
// either direction) tessellate it to bitwise identical points: no cracks.
TEST(BezierPatch, SharedBordersBetweenFacesAreBitwiseIdentical) {
  struct Border {
    int face;
    std::array<Vec3, 3> control;
    std::vector<Vec3> points;  // n + 1
  };
  for (const std::string name : {"oa_ctf2", "am_thornish", "delta"}) {
    SCOPED_TRACE(name);
    const std::string bytes = ReadOpenArenaMap(name);
    const absl::StatusOr<BspFile> bsp = ParseBsp(bytes, name);
    ASSERT_TRUE(bsp.ok());
    constexpr int n = 8;
    std::vector<Border> borders;
    for (int i = 0; i < static_cast<int>(bsp->faces.size()); ++i) {
      const BspFace& f = bsp->faces[i];
      if (f.type != kPatch) continue;
      const int w = f.patch_width, h = f.patch_height;
      const Vec3* cp = &bsp->vertices[f.first_vertex];
      const PatchGrid g = TessellatePatch(std::span<const Vec3>(cp, w * h), w, h, n);
      // Each side as (control index, grid index) steps.
      const auto side = [&](int c0, int dc, int len, int g0, int dg) {
        for (int k = 0; k + 2 < len; k += 2) {
          Border b{i, {cp[c0 + k * dc], cp[c0 + (k + 1) * dc], cp[c0 + (k + 2) * dc]}, {}};
          for (int s = 0; s <= n; ++s) b.points.push_back(g.points[g0 + (k / 2 * n + s) * dg]);
          borders.push_back(std::move(b));
        }
      };
      side(0, 1, w, 0, 1);                                   // first row
      side((h - 1) * w, 1, w, (g.rows - 1) * g.columns, 1);  // last row
      side(0, w, h, 0, g.columns);                           // first column
      side(w - 1, w, h, g.columns - 1, g.columns);           // last column
    }
    int shared = 0;
    for (std::size_t a = 0; a < borders.size(); ++a) {
      for (std::size_t b = a + 1; b < borders.size(); ++b) {
        const Border &x = borders[a], &y = borders[b];
        if (x.face == y.face || x.control[1] != y.control[1]) continue;
        std::vector<Vec3> other = y.points;
        if (x.control[0] == y.control[2] && x.control[2] == y.control[0]) {
          std::reverse(other.begin(), other.end());
        } else if (x.control[0] != y.control[0] || x.control[2] != y.control[2]) {
          continue;
        }
        ASSERT_EQ(x.points, other) << "faces " << x.face << " and " << y.face;
        ++shared;
      }
    }
    EXPECT_GT(shared, 10);
    std::printf("%s: %d patch borders shared between faces, all bitwise identical\n", name.c_str(), shared);
  }
}

// The same property where rounding would show it: full 53-bit control
// points, a face mirrored (its first row traversed backwards) and transposed
// (its first row becomes its first column).
TEST(BezierPatch, BordersAreIdenticalReversedAndTransposedAtFullPrecision) {
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> coordinate(-3000.0, 3000.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Vec3> grid(9), mirrored(9), transposed(9);
    for (Vec3& p : grid) p = {coordinate(rng), coordinate(rng) * 1e-3, coordinate(rng) * 1e3};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        mirrored[r * 3 + c] = grid[r * 3 + 2 - c];
        transposed[c * 3 + r] = grid[r * 3 + c];
      }
    }
    const PatchGrid a = TessellatePatch(grid, 3, 3, 8), m = TessellatePatch(mirrored, 3, 3, 8),
                    t = TessellatePatch(transposed, 3, 3, 8);
    for (int k = 0; k <= 8; ++k) {
      ASSERT_EQ(a.points[k], m.points[8 - k]) << trial;          // first row, backwards
      ASSERT_EQ(a.points[k], t.points[k * t.columns]) << trial;  // first column
    }
  }
}

// Every player-clip brush of four maps becomes a closed convex hull: corners
// inside every side's half-space and on their own side's plane, every edge
// shared by exactly two polygons, positive volume; the import adds exactly
// their triangles.
TEST(BrushHull, ClipBrushesOfRealMapsAreClosedConvexHulls) {
  for (const std::string name : {"oa_bases3", "pul1duel-oa", "czest2ctf", "am_underworks2"}) {
    SCOPED_TRACE(name);
    const std::string bytes = ReadOpenArenaMap(name);
    const absl::StatusOr<BspFile> bsp = ParseBsp(bytes, name);
    ASSERT_TRUE(bsp.ok());
    const BspModel& world = bsp->models[0];
    std::uint64_t brushes = 0, hull_triangles = 0;
    for (std::int32_t b = world.first_brush; b < world.first_brush + world.num_brushes; ++b) {
      const BspBrush& brush = bsp->brushes[b];
      const std::int32_t contents = bsp->shaders[brush.shader].flags.contents;
      if (!(contents & 0x10000) || (contents & 0x1)) continue;
      ++brushes;
      std::vector<BspPlane> planes;
      for (int k = 0; k < brush.num_sides; ++k)
        planes.push_back(bsp->planes[bsp->brush_side_planes[brush.first_side + k]]);
      const std::vector<std::array<Vec3, 3>> hull = BrushHull(planes);
      ASSERT_GE(hull.size(), 4u) << "brush " << b;
      std::map<std::pair<std::array<double, 3>, std::array<double, 3>>, int> edges;
      double volume = 0;
      for (const std::array<Vec3, 3>& polygon : hull) {
        ASSERT_GE(polygon.size(), 3u);
        hull_triangles += polygon.size() - 2;
        for (std::size_t k = 0; k < polygon.size(); ++k) {
          const Vec3 &p = polygon[k], &q = polygon[(k + 1) % polygon.size()];
          for (const BspPlane& plane : planes)
            ASSERT_LE(Dot(plane.normal, p) - plane.dist, 1e-3) << "brush " << b;
          const std::array<double, 3> a = {p.x, p.y, p.z}, c = {q.x, q.y, q.z};
          ++edges[std::minmax(a, c)];
          if (k >= 1 && k + 1 < polygon.size()) volume += Dot(polygon[0], Cross(p, q)) / 6;  // fan tetrahedra
        }
      }
      for (const auto& [edge, count] : edges) ASSERT_EQ(count, 2) << "brush " << b << ": open or T-junction";
      EXPECT_GT(std::fabs(volume), 1.0) << "brush " << b;
    }
    EXPECT_GT(brushes, 30u);
    const absl::StatusOr<ImportedMesh> without = ImportBspBytes(bytes, name);
    const absl::StatusOr<ImportedMesh> with = ImportBspBytes(bytes, name, {.clip_brushes = true});
    ASSERT_TRUE(without.ok() && with.ok());
    EXPECT_EQ(with->stats.clip_brushes, brushes);
    EXPECT_EQ(with->mesh.triangles.size(), without->mesh.triangles.size() + hull_triangles);
  }
}

TEST(CollisionRule, SolidAndPlayerClipCollideNonSolidAndLiquidsDoNot) {
  EXPECT_TRUE(CollidesWithPlayer({.surface = 0, .contents = 0x1}));           // solid
  EXPECT_TRUE(CollidesWithPlayer({.surface = 0x4 | 0x10, .contents = 0x1}));  // sky, noimpact: a wall
  EXPECT_TRUE(CollidesWithPlayer({.surface = 0, .contents = 0x10000}));       // playerclip
  EXPECT_FALSE(CollidesWithPlayer({.surface = 0x4000, .contents = 0x1}));     // nonsolid
  EXPECT_FALSE(CollidesWithPlayer({.surface = 0, .contents = 0x20}));         // water
  EXPECT_FALSE(CollidesWithPlayer({.surface = 0, .contents = 0x8 | 0x10}));   // lava, slime
  EXPECT_FALSE(CollidesWithPlayer({.surface = 0, .contents = 0x40000000}));   // trigger
  EXPECT_FALSE(CollidesWithPlayer({.surface = 0, .contents = 0}));            // no contents (decal)
}

}  // namespace
}  // namespace collide::importer
