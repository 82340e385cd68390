// ImportMap: the format by the file's extension. .bsp and .pk3 never reach
// assimp: Debian's assimp 5.2.5 opens them but crashes on the OpenArena maps
// (faces indexing past the vertex array).
#include <bit>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "importers.h"

namespace collide::importer {

absl::Status ValidateOptions(const ImportOptions& options, const std::string& file) {
  const auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", what));
  };
  const int n = options.patch_subdivisions;
  if (n < 1 || n > 64 || !std::has_single_bit(static_cast<unsigned>(n))) {
    return bad(absl::StrCat("patch_subdivisions ", n, " is not a power of two in [1, 64]"));
  }
  if (!(options.scale > 0.0) || !std::isfinite(options.scale)) {
    return bad(absl::StrCat("scale ", options.scale, " is not a finite positive number"));
  }
  if (options.categories == 0 && !options.clip_brushes) return bad("categories is empty");
  if ((options.categories & ~kAllCategories) != 0) {
    return bad(absl::StrCat("categories ", options.categories, " has bits beyond the ", kCategoryCount,
                            " categories"));
  }
  // Vertex indices are 32-bit and a mesh has at most 3 vertices per triangle.
  if (options.max_triangles > (std::uint64_t{1} << 30)) {
    return bad(absl::StrCat("max_triangles ", options.max_triangles, " exceeds 2^30"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ImportedMesh> ImportMap(const std::string& path, const ImportOptions& options) {
  const std::size_t dot = path.find_last_of('.');
  const std::string ext = dot == std::string::npos ? "" : absl::AsciiStrToLower(path.substr(dot + 1));
  if (ext == "pk3") {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = FileSource(path);
    if (!source.ok()) return source.status();
    return ImportPk3(*std::move(source), options);
  }
  if (ext == "bsp") {
    absl::StatusOr<std::string> bytes = ReadWholeFile(path, options.max_entry_bytes);
    if (!bytes.ok()) return bytes.status();
    return ImportBspBytes(*bytes, path, options);
  }
  if (ext == "gltf" || ext == "glb" || ext == "obj") return ImportWithAssimp(path, ext, options);
  return absl::InvalidArgumentError(
      absl::StrCat(path, ": unknown map format \".", ext, "\" (supported: .bsp .pk3 .gltf .glb .obj)"));
}

}  // namespace collide::importer
