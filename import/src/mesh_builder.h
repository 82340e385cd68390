// Collects an importer's triangles: welds vertices at bitwise identical
// positions (-0 and +0 alike), then applies the output axis and scale and
// measures the bounds.
#ifndef COLLIDE_IMPORT_MESH_BUILDER_H_
#define COLLIDE_IMPORT_MESH_BUILDER_H_

#include <array>
#include <cstdint>

#include "absl/container/flat_hash_map.h"
#include "collide/import/map_import.h"
#include "collide/mesh_data.h"

namespace collide::importer {

// A point of the format's stored up axis in options' output frame.
Vec3 OutputPoint(const Vec3& v, UpAxis stored, const ImportOptions& options);

class MeshBuilder {
 public:
  explicit MeshBuilder(std::uint64_t triangles);
  // The index of the vertex at p, added when new.
  std::uint32_t Vertex(const Vec3& p);
  void Triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) { mesh_.triangles.push_back({a, b, c}); }
  // Converts from the format's stored up axis to options.up, scales, and
  // fills stats' bounds.
  MeshData Finish(UpAxis stored, const ImportOptions& options, ImportStats& stats) &&;

 private:
  MeshData mesh_;
  absl::flat_hash_map<std::array<std::uint64_t, 3>, std::uint32_t> index_of_;
};

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_MESH_BUILDER_H_
