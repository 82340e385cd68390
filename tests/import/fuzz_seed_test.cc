// The import_fuzz seeds (tests/fuzz/make_import_seeds.py) reach every branch
// they were written for: the synthetic BSP imports with its quad and its
// patch, the water face, billboard and brush entity skipped.
#include <string>

#include "collide/import/map_import.h"
#include "gtest/gtest.h"
#include "import_test_util.h"

namespace collide::importer {
namespace {

using ::collide::testing::ReadFuzzSeed;

void ExpectTheSeedLevel(const absl::StatusOr<ImportedMesh>& m) {
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->mesh.triangles.size(), 2u + 2 * 8 * 8);
  EXPECT_EQ(m->stats.polygon_faces, 1u);
  EXPECT_EQ(m->stats.patch_faces, 1u);
  EXPECT_EQ(m->stats.nonsolid_faces, 1u);
  EXPECT_EQ(m->stats.billboard_faces, 1u);
  EXPECT_EQ(m->stats.brush_entity_faces, 1u);
  // All but the patch's corner control points are at z = 16: at its centre
  // the corners weigh 4 * (1/4)^2 = 1/4, so the surface peaks at 16 * 3/4.
  EXPECT_EQ(m->stats.max.z, 12.0);
  EXPECT_EQ(m->stats.min.z, 0.0);
}

TEST(FuzzSeeds, BspAndPk3SeedsImportTheSeedLevel) {
  ExpectTheSeedLevel(ImportBspBytes(ReadFuzzSeed("seed-bsp"), "seed-bsp"));
  ExpectTheSeedLevel(ImportPk3Bytes(ReadFuzzSeed("seed-pk3-deflate"), "seed-pk3-deflate"));
  ExpectTheSeedLevel(ImportPk3Bytes(ReadFuzzSeed("seed-pk3-stored"), "seed-pk3-stored"));
  ExpectTheSeedLevel(ImportPk3Bytes(ReadFuzzSeed("seed-pk3-two-maps"), "seed-pk3-two-maps", {.map = "b"}));
  EXPECT_EQ(ImportPk3Bytes(ReadFuzzSeed("seed-pk3-two-maps"), "two").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace collide::importer
