// One test per class of bad file: each gives an error naming the file and
// what is wrong, never a crash, never an allocation past the limits.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "collide/import/map_import.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "import_test_util.h"
#include "little_endian.h"

namespace collide::importer {
namespace {

using ::collide::testing::MakeZip;
using ::collide::testing::ReadFuzzSeed;
using ::collide::testing::WriteTempFile;
using ::collide::testing::ZipFileSpec;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A valid level to damage: the fuzz seed's (a quad, a patch, a water face,
// a billboard and a brush entity), so that this test needs no game data.
const std::string& Map() {
  static const std::string* bytes = new std::string(ReadFuzzSeed("seed-bsp"));
  return *bytes;
}

void Store32(std::string& s, std::size_t at, std::int32_t v) {
  for (int i = 0; i < 4; ++i)
    s[at + i] = static_cast<char>((static_cast<std::uint32_t>(v) >> (8 * i)) & 0xff);
}
// Directory entry i of the BSP header: offset at 8 + 8 i, length at 12 + 8 i.
std::size_t LumpOffset(const std::string& bsp, int lump) { return LoadU32(&bsp[8 + 8 * lump]); }
constexpr int kFacesLump = 13, kMeshvertsLump = 11, kBrushesLump = 8, kBrushSidesLump = 9;
constexpr std::size_t kFaceSize = 104;

// The first polygon face's record offset.
std::size_t FirstPolygonFace(const std::string& bsp) {
  for (std::size_t at = LumpOffset(bsp, kFacesLump);; at += kFaceSize) {
    if (LoadI32(&bsp[at + 8]) == 1 && LoadI32(&bsp[at + 24]) >= 3) return at;
  }
}

TEST(BadBsp, EmptyAndTruncatedHeader) {
  for (std::size_t size : {0, 4, 100}) {
    const absl::Status s = ImportBspBytes(Map().substr(0, size), "cut.bsp").status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), AllOf(StartsWith("cut.bsp: "), HasSubstr("truncated")));
  }
}

TEST(BadBsp, TruncatedLumps) {
  const absl::Status s = ImportBspBytes(Map().substr(0, Map().size() / 2), "half.bsp").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              AllOf(StartsWith("half.bsp: lump "), HasSubstr("lies outside the"), HasSubstr("truncated")));
}

TEST(BadBsp, WrongMagic) {
  std::string bsp = Map();
  bsp.replace(0, 4, "VBSP");
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "magic.bsp").status().message()),
              AllOf(StartsWith("magic.bsp: "), HasSubstr("wrong magic")));
  EXPECT_THAT(std::string(ImportPk3Bytes(bsp, "magic.pk3").status().message()),
              AllOf(StartsWith("magic.pk3: "), HasSubstr("not a zip archive"), HasSubstr("wrong magic")));
}

TEST(BadBsp, WrongVersion) {
  std::string bsp = Map();
  Store32(bsp, 4, 47);
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "v47.bsp").status().message()),
              AllOf(StartsWith("v47.bsp: "), HasSubstr("wrong version 47")));
}

TEST(BadBsp, OutOfRangeMeshvertIndex) {
  std::string bsp = Map();
  const std::size_t face = FirstPolygonFace(bsp);
  const std::int32_t first_meshvert = LoadI32(&bsp[face + 20]);
  Store32(bsp, LumpOffset(bsp, kMeshvertsLump) + 4 * first_meshvert, 1 << 30);
  const absl::Status s = ImportBspBytes(bsp, "index.bsp").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              AllOf(StartsWith("index.bsp: face "), HasSubstr("= 1073741824 is outside the face's"),
                    HasSubstr("out-of-range index")));
}

TEST(BadBsp, OutOfRangeVertexRangeAndShader) {
  std::string bsp = Map();
  Store32(bsp, FirstPolygonFace(bsp) + 12, 0x7ffffff0);  // first_vertex
  EXPECT_THAT(
      std::string(ImportBspBytes(bsp, "verts.bsp").status().message()),
      AllOf(StartsWith("verts.bsp: face "), HasSubstr("vertices [2147483632, +"), HasSubstr("out of range")));
  bsp = Map();
  Store32(bsp, FirstPolygonFace(bsp), -1);  // shader
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "shader.bsp").status().message()),
              AllOf(StartsWith("shader.bsp: face "), HasSubstr("shader -1 is out of range")));
}

TEST(BadBsp, OutOfRangeBrushPlaneAndSides) {
  std::string bsp = Map();
  Store32(bsp, LumpOffset(bsp, kBrushSidesLump), 999);  // side 0's plane
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "plane.bsp").status().message()),
              AllOf(StartsWith("plane.bsp: brush side 0: plane 999 is out of range")));
  bsp = Map();
  Store32(bsp, LumpOffset(bsp, kBrushesLump) + 4, 5000);  // brush 0's side count
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "sides.bsp").status().message()),
              AllOf(StartsWith("sides.bsp: brush 0: sides [0, +5000) are out of range")));
}

TEST(BadBsp, AbsurdCounts) {
  // A lump length of 2^31 - 1 in a 2 kB file.
  std::string bsp = Map();
  Store32(bsp, 12 + 8 * kFacesLump, 0x7fffffff);
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "count.bsp").status().message()),
              AllOf(StartsWith("count.bsp: lump 13 (faces)"), HasSubstr("length 2147483647")));
  // A patch grid of 1001 x 1001 control points.
  bsp = Map();
  const std::size_t face = FirstPolygonFace(bsp);
  Store32(bsp, face + 8, 2);
  Store32(bsp, face + 96, 1001);
  Store32(bsp, face + 100, 1001);
  EXPECT_THAT(std::string(ImportBspBytes(bsp, "patch.bsp").status().message()),
              AllOf(StartsWith("patch.bsp: face "), HasSubstr("patch control grid 1001x1001")));
  // More triangles than the caller allows: refused before allocating.
  const absl::Status s = ImportBspBytes(Map(), "cap.bsp", {.max_triangles = 100}).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(s.message()),
              AllOf(StartsWith("cap.bsp: 130 triangles"), HasSubstr("exceed the limit of 100")));
}

TEST(BadPk3, TruncatedArchive) {
  const std::string zip = MakeZip({{.name = "maps/a.bsp", .data = Map()}});
  // Cut inside the data: the end record is gone.
  EXPECT_THAT(std::string(ImportPk3Bytes(zip.substr(0, zip.size() / 2), "cut.pk3").status().message()),
              AllOf(StartsWith("cut.pk3: "), HasSubstr("no end-of-central-directory record")));
  // Cut inside the central directory: the end record's offsets point past it.
  std::string tail_only = zip.substr(0, zip.size() - 30) + zip.substr(zip.size() - 22);
  EXPECT_THAT(std::string(ImportPk3Bytes(tail_only, "dir.pk3").status().message()),
              AllOf(StartsWith("dir.pk3: "), HasSubstr("central directory")));
}

TEST(BadPk3, CorruptDeflateStream) {
  std::string zip =
      MakeZip({{.name = "maps/a.bsp", .data = Map(), .raw_compressed = std::string(4096, '\xff')}});
  const absl::Status s = ImportPk3Bytes(zip, "corrupt.pk3").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              AllOf(StartsWith("corrupt.pk3: maps/a.bsp: "), HasSubstr("corrupt deflate stream")));
}

TEST(BadPk3, ZipBombStopsAtTheDeclaredSize) {
  // 16 MB of zeros declared as 1 kB: inflation stops after 1 kB.
  const std::string zip =
      MakeZip({{.name = "maps/bomb.bsp", .data = std::string(16 << 20, '\0'), .declared_size = 1024}});
  ASSERT_LT(zip.size(), 200u << 10);
  EXPECT_THAT(
      std::string(ImportPk3Bytes(zip, "bomb.pk3").status().message()),
      AllOf(StartsWith("bomb.pk3: maps/bomb.bsp: "), HasSubstr("inflates past its declared size of 1024")));
  // Declared larger than the limit: refused before allocating.
  const std::string huge = MakeZip({{.name = "maps/huge.bsp", .data = "x", .declared_size = 0xfffffff0}});
  const absl::Status s = ImportPk3Bytes(huge, "huge.pk3").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(s.message()),
              AllOf(StartsWith("huge.pk3: maps/huge.bsp: "), HasSubstr("exceeds the limit")));
}

TEST(BadPk3, AbsurdEntryCount) {
  std::string zip = MakeZip({{.name = "maps/a.bsp", .data = "IBSP"}});
  const std::size_t end = zip.size() - 22;
  zip[end + 8] = zip[end + 10] = '\xfe';  // 0xfefe... entries
  zip[end + 9] = zip[end + 11] = '\xfe';
  EXPECT_THAT(std::string(ImportPk3Bytes(zip, "count.pk3").status().message()),
              AllOf(StartsWith("count.pk3: 65278 entries cannot fit")));
}

TEST(BadPk3, CrcMismatchAndStoredSizeMismatch) {
  std::string zip = MakeZip({{.name = "maps/a.bsp", .data = Map(), .deflate = false}});
  zip[100] ^= 1;  // inside the stored data
  EXPECT_THAT(std::string(ImportPk3Bytes(zip, "crc.pk3").status().message()),
              AllOf(StartsWith("crc.pk3: maps/a.bsp: "), HasSubstr("CRC-32 mismatch")));
}

TEST(BadPk3, BadMapInsideNamesArchiveAndEntry) {
  std::string bsp = Map();
  bsp.replace(0, 4, "XXXX");
  const std::string zip = MakeZip({{.name = "maps/a.bsp", .data = bsp}});
  EXPECT_THAT(std::string(ImportPk3Bytes(zip, "in.pk3").status().message()),
              StartsWith("in.pk3: maps/a.bsp: wrong magic"));
  EXPECT_EQ(ImportPk3Bytes(zip, "in.pk3", {.map = "b"}).status().code(), absl::StatusCode::kNotFound);
}

TEST(BadFiles, MissingFileAndUnknownExtension) {
  EXPECT_THAT(std::string(ImportMap("/nonexistent/x.pk3").status().message()),
              StartsWith("/nonexistent/x.pk3: cannot open"));
  EXPECT_EQ(ImportMap("/nonexistent/x.bsp").status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(ImportMap("level.fbx").status().message()),
              StartsWith("level.fbx: unknown map format \".fbx\""));
}

// Every format's open refuses what is not a regular file, without blocking:
// a FIFO that no writer ever opens, and a directory.
TEST(BadFiles, OnlyRegularFilesAreOpened) {
  const std::string probe = WriteTempFile("probe.bin", "x");
  const std::string dir = probe.substr(0, probe.rfind('/') + 1);
  std::remove(probe.c_str());
  for (const char* ext : {"bsp", "pk3", "glb", "gltf", "obj"}) {
    const std::string fifo = dir + "fifo." + ext;
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << fifo << ": " << std::strerror(errno);
    const absl::Status s = ImportMap(fifo).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_EQ(std::string(s.message()), fifo + ": not a regular file (a FIFO); only regular files are read");
    std::remove(fifo.c_str());

    const std::string directory = dir + "directory." + ext;
    ASSERT_EQ(mkdir(directory.c_str(), 0700), 0) << directory << ": " << std::strerror(errno);
    EXPECT_THAT(std::string(ImportMap(directory).status().message()),
                StartsWith(directory + ": not a regular file (a directory)"));
    rmdir(directory.c_str());
  }
  EXPECT_THAT(std::string(ImportMap("/dev/null.bsp").status().message()), HasSubstr("cannot open"));
  EXPECT_THAT(std::string(ListPk3Maps("/dev/zero").status().message()),
              StartsWith("/dev/zero: not a regular file (a character device)"));
}

TEST(BadFiles, BspAndZipNeverReachAssimp) {
  const std::string path = WriteTempFile("disguised.obj", Map());
  EXPECT_THAT(std::string(ImportMap(path).status().message()),
              AllOf(StartsWith(path + ": "), HasSubstr("wrong magic")));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace collide::importer
