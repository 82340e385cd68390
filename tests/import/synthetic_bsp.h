// A writer of small Quake 3 BSP files (IBSP 46) for the import tests: the
// lumps the importer reads, one world model holding every face and brush.
#ifndef COLLIDE_TESTS_IMPORT_SYNTHETIC_BSP_H_
#define COLLIDE_TESTS_IMPORT_SYNTHETIC_BSP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "bsp_file.h"

namespace collide::testing {

struct SyntheticBsp {
  std::vector<importer::BspShader> shaders;
  std::vector<importer::BspPlane> planes;
  std::vector<importer::BspBrush> brushes;
  std::vector<std::int32_t> brush_side_planes;
  std::vector<std::int32_t> brush_side_shaders;  // Brush: the brush's shader on every side
  std::vector<Vec3> vertices;
  std::vector<std::int32_t> meshverts;
  std::vector<importer::BspFace> faces;

  // Adds a shader; returns its index.
  std::int32_t Shader(const std::string& name, std::int32_t surface, std::int32_t contents);
  // Adds a brush of these sides; returns its index.
  std::int32_t Brush(const std::vector<importer::BspPlane>& sides, std::int32_t shader);
  // Adds the axis-aligned box brush [lo, hi] (six sides); returns its index.
  std::int32_t BoxBrush(const Vec3& lo, const Vec3& hi, std::int32_t shader);
  // Adds a polygon face (a fan over the corners).
  void PolygonFace(const std::vector<Vec3>& corners, std::int32_t shader);
  // The file's bytes.
  std::string Bytes() const;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_IMPORT_SYNTHETIC_BSP_H_
