// Quake 3 BSP -> MeshData: the world model's geometry of the chosen
// categories (map_import.h): drawn faces, brush hulls, collision patches.
#include <string>

#include "absl/strings/str_cat.h"
#include "bezier_patch.h"
#include "bsp_brushes.h"
#include "bsp_contents.h"
#include "bsp_file.h"
#include "collision_patch.h"
#include "importers.h"
#include "mesh_builder.h"

namespace collide::importer {
namespace {

// The triangles a drawn face contributes (0 for faces that are not imported).
std::uint64_t TrianglesOf(const BspFace& face, int n) {
  if (face.type == kPatch) return PatchTriangleCount(face.patch_width, face.patch_height, n);
  if (face.type == kPolygon || face.type == kTriangleSoup)
    return static_cast<std::uint64_t>(face.num_meshverts) / 3;
  return 0;
}

std::span<const Vec3> ControlPoints(const BspFile& bsp, const BspFace& face) {
  return std::span<const Vec3>(bsp.vertices).subspan(face.first_vertex, face.num_vertices);
}

// Two triangles per grid cell, split along the (r, c)-(r+1, c+1) diagonal
// (the one cm_patch.c's facets take).
void AddGrid(MeshBuilder& builder, const PatchGrid& grid) {
  std::vector<std::uint32_t> index(grid.points.size());
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = builder.Vertex(grid.points[k]);
  for (int r = 0; r + 1 < grid.rows; ++r) {
    for (int c = 0; c + 1 < grid.columns; ++c) {
      const std::uint32_t a = index[r * grid.columns + c], b = index[r * grid.columns + c + 1],
                          d = index[(r + 1) * grid.columns + c], e = index[(r + 1) * grid.columns + c + 1];
      builder.Triangle(a, b, e);
      builder.Triangle(a, e, d);
    }
  }
}

// Adds what one source contributes to each of its categories' stats (bounds
// in the stored frame until Finish).
void Count(ImportStats& stats, CategoryMask categories, std::uint64_t triangles, std::span<const Vec3> points,
           std::uint64_t CategoryStats::*item) {
  for (int c = 0; c < kCategoryCount; ++c) {
    if (!(categories & MaskOf(static_cast<Category>(c)))) continue;
    CategoryStats& s = stats.categories[c];
    if (s.triangles == 0 && triangles > 0) s.min = s.max = points[0];
    s.triangles += triangles;
    if (item != nullptr) ++(s.*item);
    if (triangles == 0) continue;
    for (const Vec3& p : points) {
      s.min = Min(s.min, p);
      s.max = Max(s.max, p);
    }
  }
}

// A patch face the game collides with, and its grid steps.
struct CollisionPatch {
  const BspFace* face;
  CategoryMask categories;
  PatchSteps steps;
};

}  // namespace

bool CollidesWithPlayer(const ShaderFlags& shader) {
  return (shader.contents & (kContentsSolid | kContentsPlayerClip)) != 0 &&
         (shader.surface & kSurfaceNonSolid) == 0;
}

absl::StatusOr<ImportedMesh> ImportBspBytes(std::string_view bytes, std::string_view name,
                                            const ImportOptions& options) {
  const std::string file(name);
  if (absl::Status s = ValidateOptions(options, file); !s.ok()) return s;
  absl::StatusOr<BspFile> bsp = ParseBsp(bytes, name);
  if (!bsp.ok()) return bsp.status();
  ImportedMesh out;
  ImportStats& stats = out.stats;
  stats.format = "bsp";
  stats.source_faces = bsp->faces.size();
  const BspModel& world = bsp->models[0];
  stats.brush_entity_faces = bsp->faces.size() - static_cast<std::uint64_t>(world.num_faces);
  const int n = options.patch_subdivisions;
  const CategoryMask selected =
      options.categories | (options.clip_brushes ? MaskOf(Category::kPlayerClip) : CategoryMask{0});
  const bool render = (selected & MaskOf(Category::kRender)) != 0;
  const CategoryMask collision = selected & ~MaskOf(Category::kRender);

  // Count first, so that the cap is checked before the mesh is allocated.
  std::uint64_t triangles = 0;
  std::vector<CollisionPatch> patches;
  for (std::int32_t i = world.first_face; i < world.first_face + world.num_faces; ++i) {
    const BspFace& face = bsp->faces[i];
    if (face.type == kBillboard) continue;
    const ShaderFlags& shader = bsp->shaders[face.shader].flags;
    if (render && CollidesWithPlayer(shader)) triangles += TrianglesOf(face, n);
    const CategoryMask categories = CollisionCategories(shader.contents) & collision;
    if (face.type == kPatch && categories != 0) {
      patches.push_back(
          {&face, categories,
           CollisionPatchSteps(ControlPoints(*bsp, face), face.patch_width, face.patch_height)});
      triangles += patches.back().steps.Triangles();
    }
  }
  absl::StatusOr<std::vector<BrushHullOf>> hulls = WorldBrushHulls(*bsp, collision, file);
  if (!hulls.ok()) return hulls.status();
  for (const BrushHullOf& hull : *hulls) triangles += hull.triangles.size();
  if (triangles > options.max_triangles) {
    return absl::ResourceExhaustedError(
        absl::StrCat(file, ": ", triangles, " triangles exceed the limit of ", options.max_triangles));
  }

  MeshBuilder builder(triangles);
  for (std::int32_t i = world.first_face; render && i < world.first_face + world.num_faces; ++i) {
    const BspFace& face = bsp->faces[i];
    if (face.type == kBillboard) {
      ++stats.billboard_faces;
      continue;
    }
    if (!CollidesWithPlayer(bsp->shaders[face.shader].flags)) {
      ++stats.nonsolid_faces;
      continue;
    }
    if (face.type == kPatch) {
      ++stats.patch_faces;
      stats.patches += static_cast<std::uint64_t>((face.patch_width - 1) / 2) * ((face.patch_height - 1) / 2);
      const PatchGrid grid =
          TessellatePatch(ControlPoints(*bsp, face), face.patch_width, face.patch_height, n);
      AddGrid(builder, grid);
      Count(stats, MaskOf(Category::kRender), TrianglesOf(face, n), grid.points, &CategoryStats::patch_faces);
      continue;
    }
    ++(face.type == kPolygon ? stats.polygon_faces : stats.mesh_faces);
    std::vector<Vec3> corners;
    for (std::int32_t k = 0; k < face.num_meshverts; ++k) {
      corners.push_back(bsp->vertices[face.first_vertex + bsp->meshverts[face.first_meshvert + k]]);
    }
    for (std::size_t k = 0; k < corners.size(); k += 3) {
      builder.Triangle(builder.Vertex(corners[k]), builder.Vertex(corners[k + 1]),
                       builder.Vertex(corners[k + 2]));
    }
    Count(stats, MaskOf(Category::kRender), corners.size() / 3, corners, nullptr);
  }
  for (const CollisionPatch& patch : patches) {
    const PatchGrid grid = TessellatePatch(ControlPoints(*bsp, *patch.face), patch.face->patch_width,
                                           patch.face->patch_height, patch.steps.u, patch.steps.v);
    AddGrid(builder, grid);
    Count(stats, patch.categories, patch.steps.Triangles(), grid.points, &CategoryStats::patch_faces);
  }
  std::vector<Vec3> corners;
  for (const BrushHullOf& hull : *hulls) {
    corners.clear();
    for (const std::array<Vec3, 3>& t : hull.triangles) {
      builder.Triangle(builder.Vertex(t[0]), builder.Vertex(t[1]), builder.Vertex(t[2]));
      corners.insert(corners.end(), t.begin(), t.end());
    }
    Count(stats, hull.categories, hull.triangles.size(), corners,
          hull.triangles.empty() ? &CategoryStats::dropped_brushes : &CategoryStats::brushes);
  }
  stats.clip_brushes = stats.categories[static_cast<int>(Category::kPlayerClip)].brushes;
  out.mesh = std::move(builder).Finish(UpAxis::kZ, options, stats);
  for (CategoryStats& s : stats.categories) {
    const Vec3 a = OutputPoint(s.min, UpAxis::kZ, options), b = OutputPoint(s.max, UpAxis::kZ, options);
    s.min = Min(a, b);
    s.max = Max(a, b);
  }
  return out;
}

}  // namespace collide::importer
