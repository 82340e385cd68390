// libFuzzer target over the map readers of our own: every input is read as a
// Quake 3 BSP and as a .pk3 zip archive (import/src/bsp_file.cc,
// zip_archive.cc, pk3_import.cc), with every geometry category (brush hulls
// and collision patches too: bsp_brushes.cc, convex_hull.cc,
// collision_patch.cc). Neither may crash, allocate past the limits below, or
// run long; a success must give a valid mesh (every index in
// range, finite vertices, at most max_triangles, bounds holding every
// vertex) and a failure a message naming the input. A violation aborts,
// which libFuzzer reports as a crash.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "collide/import/map_import.h"

namespace collide::importer {
namespace {

// Small caps keep each input fast: the readers must hold them whatever the
// input declares.
const ImportOptions kOptions = {
    .categories = kAllCategories, .max_triangles = 1 << 18, .max_entry_bytes = 8 << 20};

void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "invariant violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

void Check(const absl::StatusOr<ImportedMesh>& result, const std::string& name) {
  if (!result.ok()) {
    if (std::string(result.status().message()).rfind(name + ": ", 0) != 0) {
      Fail("error does not name the file", std::string(result.status().message()));
    }
    return;
  }
  const MeshData& mesh = result->mesh;
  if (mesh.triangles.size() > kOptions.max_triangles) Fail("too many triangles", name);
  for (const TriangleIndices& t : mesh.triangles) {
    for (std::uint32_t i : t) {
      if (i >= mesh.vertices.size()) Fail("index out of range", name);
    }
  }
  for (const Vec3& v : mesh.vertices) {
    if (!IsFinite(v)) Fail("vertex not finite", name);
    if (Min(v, result->stats.min) != result->stats.min || Max(v, result->stats.max) != result->stats.max) {
      Fail("vertex outside the bounds", name);
    }
  }
}

}  // namespace
}  // namespace collide::importer

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide::importer;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Check(ImportBspBytes(bytes, "fuzz.bsp", kOptions), "fuzz.bsp");
  Check(ImportPk3Bytes(bytes, "fuzz.pk3", kOptions), "fuzz.pk3");
  return 0;
}
