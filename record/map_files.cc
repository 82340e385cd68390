#include "record/map_files.h"

#include <zlib.h>

#include <fstream>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "convert/world_requests.h"

namespace collide::record {

std::optional<importer::ImportOptions> MapImportOptions(const v1::MapFile& map, const std::string& path,
                                                        std::uint64_t max_triangles,
                                                        convert::ViolationList& violations) {
  const std::string& name = map.name();
  if (name.empty() || name.front() == '.' || name.find_first_of("/\\") != std::string::npos) {
    violations.Add(path + ".name",
                   "must be a file name in --maps_dir (no directories, not starting with '.')");
    return std::nullopt;
  }
  const std::optional<std::uint32_t> categories = convert::MapGeometryMask(map, path, violations);
  if (!categories) return std::nullopt;
  importer::ImportOptions options;
  options.map = map.map();
  options.categories = *categories;
  options.max_triangles = max_triangles;
  return options;
}

absl::StatusOr<v1::RecordedMapFile> DescribeMapFile(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  uLong crc = crc32(0L, Z_NULL, 0);
  std::int64_t size = 0;
  std::vector<char> buffer(1 << 16);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(in.gcount()));
    size += in.gcount();
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat(path, ": read failed"));
  v1::RecordedMapFile out;
  out.set_name(name);
  out.set_size_bytes(size);
  out.set_crc32(static_cast<std::uint32_t>(crc));
  return out;
}

absl::Status PinMapFiles(const std::string& maps_dir, v1::RecordingHeader& header) {
  std::set<std::string> seen;
  header.clear_map_files();
  for (const v1::StaticElement& e : header.create().statics()) {
    if (!e.has_map_file() || !seen.insert(e.map_file().name()).second) continue;
    absl::StatusOr<v1::RecordedMapFile> pinned = DescribeMapFile(maps_dir, e.map_file().name());
    if (!pinned.ok()) return pinned.status();
    *header.add_map_files() = *std::move(pinned);
  }
  return absl::OkStatus();
}

}  // namespace collide::record
