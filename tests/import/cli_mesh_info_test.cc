// `collide mesh info` and `collide mesh maps` on the real OpenArena pak: the
// numbers it prints (per category, and for the mesh) are the importer's and
// the TriangleMesh's, and errors name the file.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "import_test_util.h"
#include "support/server_process.h"

namespace collide {
namespace {

using ::collide::testing::kOpenArenaPak;
using ::testing::HasSubstr;

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

CliResult RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), COLLIDE_CLI_BIN);
  const std::string out = testing::TempPath("mesh-out"), err = testing::TempPath("mesh-err");
  const pid_t pid = testing::Spawn(args, out, err);
  CliResult r;
  if (const std::optional<int> code = testing::WaitExit(pid, std::chrono::seconds(60)); code.has_value()) {
    r.exit_code = *code;
  } else {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  r.out = testing::ReadFile(out);
  r.err = testing::ReadFile(err);
  unlink(out.c_str());
  unlink(err.c_str());
  return r;
}

TEST(CliMeshInfo, PrintsTheImportedMapAndItsBvh) {
  const CliResult r = RunCli({"mesh", "info", kOpenArenaPak, "--map=oa_bases3", "--categories=render"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const absl::StatusOr<importer::ImportedMesh> m = importer::ImportMap(kOpenArenaPak, {.map = "oa_bases3"});
  ASSERT_TRUE(m.ok());
  const TriangleMesh mesh(m->mesh);
  EXPECT_THAT(r.out, HasSubstr(": maps/oa_bases3.bsp\n"));
  EXPECT_THAT(r.out, HasSubstr("format:      bsp, Z up, scale 1\n"));
  EXPECT_THAT(r.out, HasSubstr("triangles:   " + std::to_string(m->mesh.triangles.size()) + "\n"));
  EXPECT_THAT(r.out, HasSubstr("vertices:    " + std::to_string(m->mesh.vertices.size()) + "\n"));
  EXPECT_THAT(r.out, HasSubstr("degenerate:  " + std::to_string(mesh.degenerate_count()) + " "));
  EXPECT_THAT(r.out, HasSubstr("memory:      " + std::to_string(mesh.memory_bytes()) + " bytes"));
  EXPECT_THAT(r.out, HasSubstr("bvh build:   "));
  EXPECT_THAT(r.out, HasSubstr("bounds:      ("));
}

// By default every category: a row each with the importer's counts and
// bounds, and the mesh of them all.
TEST(CliMeshInfo, ShowsEachCategory) {
  const CliResult r = RunCli({"mesh", "info", kOpenArenaPak, "--map=am_underworks2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const absl::StatusOr<importer::ImportedMesh> m =
      importer::ImportMap(kOpenArenaPak, {.map = "am_underworks2", .categories = importer::kAllCategories});
  ASSERT_TRUE(m.ok());
  for (int c = 0; c < importer::kCategoryCount; ++c) {
    const importer::CategoryStats& k = m->stats.categories[c];
    const std::string name(importer::CategoryName(static_cast<importer::Category>(c)));
    // "  NAME  TRIANGLES  BRUSHES (DROPPED)  PATCH FACES  bounds", parentheses matched by '.'.
    EXPECT_THAT(
        r.out, ::testing::ContainsRegex("\n  " + name + " +" + std::to_string(k.triangles) + " +" +
                                        std::to_string(k.brushes) + " ." + std::to_string(k.dropped_brushes) +
                                        ". +" + std::to_string(k.patch_faces) + "  "));
  }
  EXPECT_GT(m->stats.categories[static_cast<int>(importer::Category::kPlayerClip)].brushes, 0u);
  EXPECT_THAT(r.out,
              HasSubstr("mesh:        render + solid + player_clip + monster_clip + water + slime + lava"));
  EXPECT_THAT(r.out, HasSubstr("triangles:   " + std::to_string(m->mesh.triangles.size()) + "\n"));

  const CliResult bad =
      RunCli({"mesh", "info", kOpenArenaPak, "--map=am_underworks2", "--categories=solid,glass"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("unknown category \"glass\""));
}

TEST(CliMeshInfo, ListsMapsAndNamesTheFileInErrors) {
  const CliResult maps = RunCli({"mesh", "maps", kOpenArenaPak});
  ASSERT_EQ(maps.exit_code, 0) << maps.err;
  EXPECT_THAT(maps.out, HasSubstr("\noa_bases3\n"));

  const CliResult many = RunCli({"mesh", "info", kOpenArenaPak});
  EXPECT_EQ(many.exit_code, 1);
  EXPECT_THAT(many.err, HasSubstr(std::string(kOpenArenaPak) + ": holds 38 maps, choose one with --map"));

  const CliResult missing = RunCli({"mesh", "info", kOpenArenaPak, "--map=nosuchmap"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("no map \"nosuchmap\""));

  const CliResult usage = RunCli({"mesh", "frobnicate"});
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_THAT(usage.err, HasSubstr("usage: collide mesh info FILE"));
}

}  // namespace
}  // namespace collide
