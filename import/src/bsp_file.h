// The parts of a Quake 3 BSP (magic "IBSP", version 46) that hold surface
// geometry, parsed and checked: every offset, count and index is in range
// once ParseBsp returns. Layout: the id Tech 3 source (code/qcommon/qfiles.h:
// dheader_t, dshader_t, drawVert_t, dsurface_t, dmodel_t), also described in
// the "Unofficial Quake 3 Map Specs" (Kekoa Proudfoot).
#ifndef COLLIDE_IMPORT_BSP_FILE_H_
#define COLLIDE_IMPORT_BSP_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/import/map_import.h"
#include "collide/math.h"

namespace collide::importer {

enum BspFaceType : std::int32_t { kPolygon = 1, kPatch = 2, kTriangleSoup = 3, kBillboard = 4 };

struct BspShader {
  std::string name;
  ShaderFlags flags;
};

// A draw surface. For polygons and triangle soups the triangles are
// first_vertex + meshverts[first_meshvert + k]; a patch's control grid is
// vertices[first_vertex .. + patch_width * patch_height), row-major.
struct BspFace {
  std::int32_t shader = 0;
  std::int32_t type = 0;
  std::int32_t first_vertex = 0;
  std::int32_t num_vertices = 0;
  std::int32_t first_meshvert = 0;
  std::int32_t num_meshverts = 0;
  std::int32_t patch_width = 0;
  std::int32_t patch_height = 0;
};

struct BspModel {
  std::int32_t first_face = 0;
  std::int32_t num_faces = 0;
  std::int32_t first_brush = 0;
  std::int32_t num_brushes = 0;
};

// A plane: points x with Dot(normal, x) == dist. A brush is the convex
// intersection of its sides' half-spaces Dot(normal, x) <= dist.
struct BspPlane {
  Vec3 normal;
  double dist = 0.0;
};

// A brush: brush_sides[first_side .. + num_sides); `shader` gives its contents.
struct BspBrush {
  std::int32_t first_side = 0;
  std::int32_t num_sides = 0;
  std::int32_t shader = 0;
};

struct BspFile {
  std::vector<BspShader> shaders;
  std::vector<Vec3> vertices;  // positions only, widened from float
  std::vector<std::int32_t> meshverts;
  std::vector<BspFace> faces;
  std::vector<BspModel> models;  // models[0] is the static world
  std::vector<BspPlane> planes;
  std::vector<BspBrush> brushes;
  std::vector<std::int32_t> brush_side_planes;   // the plane of each brush side
  std::vector<std::int32_t> brush_side_shaders;  // the shader of each brush side, -1 when out of range
};

// Largest patch control grid side accepted: Quake 3's renderer limit
// (MAX_GRID_SIZE 65 in tr_local.h; q3map2 writes at most 32 per side).
inline constexpr std::int32_t kMaxPatchSide = 65;
// Most sides a brush may have (q3map2's MAX_BUILD_SIDES); OpenArena's
// largest has 62.
inline constexpr std::int32_t kMaxBrushSides = 1024;

// `name` stands for the file in error messages ("maps.pk3: maps/x.bsp").
absl::StatusOr<BspFile> ParseBsp(std::string_view bytes, std::string_view name);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_BSP_FILE_H_
