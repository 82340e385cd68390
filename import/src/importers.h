// The importers behind ImportMap, one per format family.
#ifndef COLLIDE_IMPORT_IMPORTERS_H_
#define COLLIDE_IMPORT_IMPORTERS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "byte_source.h"
#include "collide/import/map_import.h"

namespace collide::importer {

// InvalidArgument naming the bad option, or OK.
absl::Status ValidateOptions(const ImportOptions& options, const std::string& file);

// A .pk3 archive: the map options.map, or its only map.
absl::StatusOr<ImportedMesh> ImportPk3(std::unique_ptr<ByteSource> source, const ImportOptions& options);

// glTF, GLB or OBJ through assimp; `format` is "gltf", "glb" or "obj".
absl::StatusOr<ImportedMesh> ImportWithAssimp(const std::string& path, const std::string& format,
                                              const ImportOptions& options);

}  // namespace collide::importer

#endif  // COLLIDE_IMPORT_IMPORTERS_H_
