// OBJ, glTF and GLB through assimp, on small files the test writes: the
// triangles, node transforms, welding, the axis change and bad files.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "import_test_util.h"

namespace collide::importer {
namespace {

using ::collide::testing::WriteTempFile;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

// A quad (4 vertices, one face: two triangles once triangulated), a triangle
// sharing two of its corners in a second object, and a line that is dropped.
constexpr const char* kObj =
    "o quad\n"
    "v 0 0 0\nv 2 0 0\nv 2 0 3\nv 0 0 3\n"
    "f 1 2 3 4\n"
    "o roof\n"
    "v 1 5 1.5\n"
    "f 3 4 5\n"
    "l 1 5\n";

TEST(AssimpImport, ObjQuadIsTriangulatedAndSharedCornersWeld) {
  const std::string path = WriteTempFile("quad.obj", kObj);
  const absl::StatusOr<ImportedMesh> m = ImportMap(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->stats.format, "obj");
  EXPECT_EQ(m->stats.stored_up, UpAxis::kY);
  EXPECT_EQ(m->mesh.triangles.size(), 3u);
  EXPECT_EQ(m->mesh.vertices.size(), 5u);  // the roof's corners 3 and 4 are the quad's
  EXPECT_EQ(m->stats.min, (Vec3{0, 0, 0}));
  EXPECT_EQ(m->stats.max, (Vec3{2, 5, 3}));
  EXPECT_EQ(TriangleMesh(m->mesh).degenerate_count(), 0u);
  double area = 0;
  for (const TriangleIndices& t : m->mesh.triangles) {
    const Vec3 a = m->mesh.vertices[t[0]];
    area += Length(Cross(m->mesh.vertices[t[1]] - a, m->mesh.vertices[t[2]] - a)) / 2;
  }
  EXPECT_NEAR(area, 6.0 + Length(Cross(Vec3{-2, 0, 0}, Vec3{-1, 5, -1.5})) / 2, 1e-12);

  // Z up: (x, y, z) -> (x, -z, y), so the roof (y = 5) is now at z = 5.
  const absl::StatusOr<ImportedMesh> z = ImportMap(path, {.up = UpAxis::kZ, .scale = 2});
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->stats.max.z, 10.0);
  EXPECT_EQ(z->stats.min.y, -6.0);
  std::remove(path.c_str());
}

// One mesh (a unit right triangle), placed twice: under a parent translated
// by (10, 0, 0) with a child scaled by 2, and under a node rotated 90 degrees
// about Z.
std::string Gltf(const std::string& buffer_uri) {
  return absl::StrCat(R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,2]}],
    "nodes":[{"translation":[10,0,0],"children":[1]},{"scale":[2,2,2],"mesh":0},
             {"rotation":[0,0,0.7071067811865476,0.7071067811865476],"mesh":0}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
    "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
                 {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
    "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":6}],
    "buffers":[{"byteLength":44)",
                      buffer_uri.empty() ? "" : absl::StrCat(R"(,"uri":")", buffer_uri, "\""), "}]}");
}

std::string GltfBuffer() {
  const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const std::uint16_t indices[4] = {0, 1, 2, 0};
  std::string bin(44, '\0');
  std::memcpy(bin.data(), positions, 36);
  std::memcpy(bin.data() + 36, indices, 8);
  return bin;
}

// Writes the file, imports it, and checks the two placed triangles.
void ExpectPlacedTwice(const std::string& file_name, const std::string& bytes, const std::string& format) {
  const std::string path = WriteTempFile(file_name, bytes);
  const absl::StatusOr<ImportedMesh> imported = ImportMap(path);
  std::remove(path.c_str());
  ASSERT_TRUE(imported.ok()) << imported.status();
  const ImportedMesh& m = *imported;
  EXPECT_EQ(m.stats.format, format);
  ASSERT_EQ(m.mesh.triangles.size(), 2u);
  std::vector<std::vector<Vec3>> triangles;
  for (const TriangleIndices& t : m.mesh.triangles) {
    std::vector<Vec3> corners;
    for (std::uint32_t i : t) {
      const Vec3 v = m.mesh.vertices[i];
      corners.push_back(
          {std::round(v.x * 1e6) / 1e6, std::round(v.y * 1e6) / 1e6, std::round(v.z * 1e6) / 1e6});
    }
    triangles.push_back(corners);
  }
  EXPECT_THAT(triangles[0], UnorderedElementsAre(Vec3{10, 0, 0}, Vec3{12, 0, 0}, Vec3{10, 2, 0}));
  EXPECT_THAT(triangles[1], UnorderedElementsAre(Vec3{0, 0, 0}, Vec3{0, 1, 0}, Vec3{-1, 0, 0}));
}

TEST(AssimpImport, GltfNodeTransformsAreApplied) {
  ExpectPlacedTwice("two.gltf",
                    Gltf("data:application/octet-stream;base64," + absl::Base64Escape(GltfBuffer())), "gltf");
}

TEST(AssimpImport, GlbNodeTransformsAreApplied) {
  std::string json = Gltf("");
  json.resize((json.size() + 3) / 4 * 4, ' ');
  const std::string bin = GltfBuffer();
  std::string glb = "glTF";
  const auto put32 = [&](std::uint32_t v) { glb.append(reinterpret_cast<const char*>(&v), 4); };
  put32(2);
  put32(static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
  put32(static_cast<std::uint32_t>(json.size()));
  put32(0x4E4F534A);  // "JSON"
  glb += json;
  put32(static_cast<std::uint32_t>(bin.size()));
  put32(0x004E4942);  // "BIN\0"
  glb += bin;
  ExpectPlacedTwice("two.glb", glb, "glb");
}

// A glTF's external buffer is opened as the map is: a regular file is read,
// a FIFO in its place is refused by name without blocking (no writer ever
// opens it).
TEST(AssimpImport, ExternalBuffersMustBeRegularFiles) {
  const std::string bin = WriteTempFile("external.bin", GltfBuffer());
  const std::string bin_name = bin.substr(bin.rfind('/') + 1);
  ExpectPlacedTwice("external.gltf", Gltf(bin_name), "gltf");
  std::remove(bin.c_str());

  const std::string fifo = bin.substr(0, bin.rfind('/') + 1) + "fifo-" + bin_name;
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const std::string gltf = WriteTempFile("fifo-buffer.gltf", Gltf("fifo-" + bin_name));
  const absl::Status s = ImportMap(gltf).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(fifo + ": not a regular file (a FIFO)"));
  std::remove(gltf.c_str());
  std::remove(fifo.c_str());
}

TEST(AssimpImport, BadFilesNameTheFile) {
  const std::string gltf = WriteTempFile("bad.gltf", "{\"asset\": ");
  EXPECT_THAT(std::string(ImportMap(gltf).status().message()), StartsWith(gltf + ": "));
  const std::string obj = WriteTempFile("bad.obj", "v 0 0 0\nf 1 2 9\n");
  const absl::Status s = ImportMap(obj).status();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), StartsWith(obj + ": "));
  const std::string nan = WriteTempFile("nan.obj", "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  EXPECT_THAT(std::string(ImportMap(nan).status().message()), HasSubstr("not finite"));
  for (const std::string& p : {gltf, obj, nan}) std::remove(p.c_str());
}

}  // namespace
}  // namespace collide::importer
