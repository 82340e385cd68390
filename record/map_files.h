// Map files as a world names them (MapFile) and a recording pins them
// (RecordedMapFile: size and CRC-32), shared by the server's loader and a
// replay's.
#ifndef COLLIDE_RECORD_MAP_FILES_H_
#define COLLIDE_RECORD_MAP_FILES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/import/map_import.h"
#include "collide/v1/world.pb.h"
#include "convert/violations.h"

namespace collide::record {

// The import of `map` (element path `path`, "statics[2].map_file"): its
// name checked (a plain file name, not starting with '.') and its geometry
// as categories, capped at `max_triangles`; nothing with violations under
// `path` when either is bad.
std::optional<importer::ImportOptions> MapImportOptions(const v1::MapFile& map, const std::string& path,
                                                        std::uint64_t max_triangles,
                                                        convert::ViolationList& violations);

// `dir`/`name` as a recording pins it: its size and zlib's CRC-32.
absl::StatusOr<v1::RecordedMapFile> DescribeMapFile(const std::string& dir, const std::string& name);

// header.map_files: every map file header.create's statics name, once each,
// as read from `maps_dir` now.
absl::Status PinMapFiles(const std::string& maps_dir, v1::RecordingHeader& header);

}  // namespace collide::record

#endif  // COLLIDE_RECORD_MAP_FILES_H_
