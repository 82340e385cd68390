// Quake 3 BSP -> MeshData: the world model's collision faces as triangles.
#include <string>

#include "absl/strings/str_cat.h"
#include "bezier_patch.h"
#include "brush_hull.h"
#include "bsp_file.h"
#include "importers.h"
#include "mesh_builder.h"

namespace collide::importer {
namespace {

// code/game/surfaceflags.h
constexpr std::int32_t kContentsSolid = 0x1;
constexpr std::int32_t kContentsPlayerClip = 0x10000;
constexpr std::int32_t kSurfaceNonSolid = 0x4000;

// Clip brushes cost O(sides^3) each (sides^2 clips of polygons of up to
// `sides` corners); their sum is capped so that no input runs long.
// OpenArena's maps need under 2^16.
constexpr std::uint64_t kMaxBrushWork = std::uint64_t{1} << 26;

bool IsClipBrush(const BspFile& bsp, const BspBrush& brush) {
  const std::int32_t contents = bsp.shaders[brush.shader].flags.contents;
  return (contents & kContentsPlayerClip) != 0 && (contents & kContentsSolid) == 0;
}

// The triangles a face contributes (0 for faces that are not imported).
std::uint64_t TrianglesOf(const BspFace& face, int n) {
  if (face.type == kPatch) return PatchTriangleCount(face.patch_width, face.patch_height, n);
  if (face.type == kPolygon || face.type == kTriangleSoup)
    return static_cast<std::uint64_t>(face.num_meshverts) / 3;
  return 0;
}

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

  // Count first, so that the cap is checked before anything is allocated.
  std::uint64_t triangles = 0;
  for (std::int32_t i = world.first_face; i < world.first_face + world.num_faces; ++i) {
    const BspFace& face = bsp->faces[i];
    if (face.type == kBillboard || !CollidesWithPlayer(bsp->shaders[face.shader].flags)) continue;
    triangles += TrianglesOf(face, n);
  }
  if (triangles > options.max_triangles) {
    return absl::ResourceExhaustedError(
        absl::StrCat(file, ": ", triangles, " triangles exceed the limit of ", options.max_triangles));
  }

  MeshBuilder builder(triangles);
  for (std::int32_t i = world.first_face; i < world.first_face + world.num_faces; ++i) {
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
          TessellatePatch(std::span<const Vec3>(bsp->vertices).subspan(face.first_vertex, face.num_vertices),
                          face.patch_width, face.patch_height, n);
      std::vector<std::uint32_t> index(grid.points.size());
      for (std::size_t k = 0; k < index.size(); ++k) index[k] = builder.Vertex(grid.points[k]);
      for (int r = 0; r + 1 < grid.rows; ++r) {
        for (int c = 0; c + 1 < grid.columns; ++c) {
          const std::uint32_t a = index[r * grid.columns + c], b = index[r * grid.columns + c + 1],
                              d = index[(r + 1) * grid.columns + c],
                              e = index[(r + 1) * grid.columns + c + 1];
          builder.Triangle(a, b, e);
          builder.Triangle(a, e, d);
        }
      }
      continue;
    }
    ++(face.type == kPolygon ? stats.polygon_faces : stats.mesh_faces);
    for (std::int32_t k = 0; k < face.num_meshverts; k += 3) {
      std::uint32_t t[3];
      for (int j = 0; j < 3; ++j) {
        t[j] = builder.Vertex(bsp->vertices[face.first_vertex + bsp->meshverts[face.first_meshvert + k + j]]);
      }
      builder.Triangle(t[0], t[1], t[2]);
    }
  }
  if (options.clip_brushes) {
    std::uint64_t work = 0;
    for (std::int32_t i = world.first_brush; i < world.first_brush + world.num_brushes; ++i) {
      const std::uint64_t sides = static_cast<std::uint64_t>(bsp->brushes[i].num_sides);
      if (IsClipBrush(*bsp, bsp->brushes[i])) work += sides * sides * sides;
    }
    if (work > kMaxBrushWork) {
      return absl::ResourceExhaustedError(
          absl::StrCat(file, ": clip brushes of ", work, " sides cubed exceed the limit of ", kMaxBrushWork));
    }
    std::vector<BspPlane> planes;
    for (std::int32_t i = world.first_brush; i < world.first_brush + world.num_brushes; ++i) {
      const BspBrush& brush = bsp->brushes[i];
      if (!IsClipBrush(*bsp, brush)) continue;
      ++stats.clip_brushes;
      planes.clear();
      for (std::int32_t k = 0; k < brush.num_sides; ++k) {
        planes.push_back(bsp->planes[bsp->brush_side_planes[brush.first_side + k]]);
      }
      for (const std::vector<Vec3>& polygon : BrushHull(planes)) {
        triangles += polygon.size() - 2;
        if (triangles > options.max_triangles) {
          return absl::ResourceExhaustedError(
              absl::StrCat(file, ": more than ", options.max_triangles, " triangles with the clip brushes"));
        }
        const std::uint32_t first = builder.Vertex(polygon[0]);
        std::uint32_t previous = builder.Vertex(polygon[1]);
        for (std::size_t k = 2; k < polygon.size(); ++k) {
          const std::uint32_t next = builder.Vertex(polygon[k]);
          builder.Triangle(first, previous, next);
          previous = next;
        }
      }
    }
  }
  out.mesh = std::move(builder).Finish(UpAxis::kZ, options, stats);
  return out;
}

}  // namespace collide::importer
