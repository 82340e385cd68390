// Shared by the import tests: the real OpenArena maps, the synthetic fuzz
// seeds, and a small zip writer for synthetic archives (good and bad).
#ifndef COLLIDE_TESTS_IMPORT_IMPORT_TEST_UTIL_H_
#define COLLIDE_TESTS_IMPORT_IMPORT_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace collide::testing {

// Debian's openarena-088-data (scripts/install-deps.sh installs it).
inline constexpr const char* kOpenArenaPak = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";

// maps/NAME.bsp of kOpenArenaPak, through the importer's own zip reader.
std::string ReadOpenArenaMap(const std::string& name);

// A seed of import_fuzz (tests/fuzz/corpus/import_fuzz/, written by
// tests/fuzz/make_import_seeds.py): "seed-bsp" is a small synthetic level.
std::string ReadFuzzSeed(const std::string& name);

struct ZipFileSpec {
  std::string name;
  std::string data;
  bool deflate = true;
  // Written instead of the real values when set (for bad archives).
  std::int64_t declared_size = -1;
  std::string raw_compressed;  // replaces the deflate output when non-empty
};
// A single-disk zip archive (APPNOTE 6.3) of the files, deflated with zlib.
std::string MakeZip(const std::vector<ZipFileSpec>& files);

// Writes bytes to a fresh file under the test temp dir named `name`; returns its path.
std::string WriteTempFile(const std::string& name, const std::string& bytes);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_IMPORT_IMPORT_TEST_UTIL_H_
