// .pk3 (a zip archive of a Quake 3 game's files): its maps/NAME.bsp entries.
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "importers.h"
#include "zip_archive.h"

namespace collide::importer {
namespace {

// NAME for an entry maps/NAME.bsp (any case, no subfolder), else "".
std::string MapNameOf(const std::string& entry) {
  if (!absl::StartsWithIgnoreCase(entry, "maps/") || !absl::EndsWithIgnoreCase(entry, ".bsp")) return "";
  const std::string name = entry.substr(5, entry.size() - 9);
  return name.empty() || absl::StrContains(name, '/') ? "" : name;
}

std::vector<std::string> MapsIn(const ZipArchive& archive) {
  std::vector<std::string> maps;
  for (const ZipEntry& e : archive.entries()) {
    if (std::string name = MapNameOf(e.name); !name.empty()) maps.push_back(std::move(name));
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

// The name --map gives, as NAME: "maps/NAME.bsp" and "NAME.bsp" are accepted.
std::string RequestedMap(std::string map) {
  if (absl::StartsWithIgnoreCase(map, "maps/")) map = map.substr(5);
  if (absl::EndsWithIgnoreCase(map, ".bsp")) map.resize(map.size() - 4);
  return map;
}

}  // namespace

absl::StatusOr<ImportedMesh> ImportPk3(std::unique_ptr<ByteSource> source, const ImportOptions& options) {
  const std::string file = source->name();
  if (absl::Status s = ValidateOptions(options, file); !s.ok()) return s;
  absl::StatusOr<ZipArchive> archive = ZipArchive::Open(std::move(source));
  if (!archive.ok()) return archive.status();
  const std::vector<std::string> maps = MapsIn(*archive);
  if (maps.empty()) return absl::NotFoundError(absl::StrCat(file, ": no maps/*.bsp in the archive"));
  std::string want = RequestedMap(options.map);
  if (want.empty()) {
    if (maps.size() > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          file, ": holds ", maps.size(), " maps, choose one with --map: ", absl::StrJoin(maps, " ")));
    }
    want = maps[0];
  }
  for (const ZipEntry& entry : archive->entries()) {
    if (!absl::EqualsIgnoreCase(MapNameOf(entry.name), want)) continue;
    absl::StatusOr<std::string> bytes = archive->Extract(entry, options.max_entry_bytes);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<ImportedMesh> mesh = ImportBspBytes(*bytes, absl::StrCat(file, ": ", entry.name), options);
    if (mesh.ok()) mesh->stats.entry = entry.name;
    return mesh;
  }
  return absl::NotFoundError(
      absl::StrCat(file, ": no map \"", want, "\" in the archive; it holds: ", absl::StrJoin(maps, " ")));
}

absl::StatusOr<ImportedMesh> ImportPk3Bytes(std::string_view bytes, std::string_view name,
                                            const ImportOptions& options) {
  return ImportPk3(MemorySource(bytes, name), options);
}

absl::StatusOr<std::vector<std::string>> ListPk3Maps(const std::string& path) {
  absl::StatusOr<std::unique_ptr<ByteSource>> source = FileSource(path);
  if (!source.ok()) return source.status();
  absl::StatusOr<ZipArchive> archive = ZipArchive::Open(*std::move(source));
  if (!archive.ok()) return archive.status();
  return MapsIn(*archive);
}

}  // namespace collide::importer
