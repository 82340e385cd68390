// The import_fuzz seeds (tests/fuzz/make_import_seeds.py) reach every branch
// they were written for: the synthetic BSP imports with its quad and its
// patch, the water face, billboard and brush entity skipped.
#include <map>
#include <string>
#include <utility>

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

// With clip_brushes the 16-unit clip cube arrives as 12 triangles on its
// exact corners; its bevel side (touching one edge) adds nothing.
TEST(FuzzSeeds, ClipBrushIsAClosedCube) {
  const absl::StatusOr<ImportedMesh> m =
      ImportBspBytes(ReadFuzzSeed("seed-bsp"), "seed-bsp", {.clip_brushes = true});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->stats.clip_brushes, 1u);
  ASSERT_EQ(m->mesh.triangles.size(), 2u + 2 * 8 * 8 + 12);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  double area = 0;
  for (std::size_t i = 130; i < m->mesh.triangles.size(); ++i) {
    const TriangleIndices& t = m->mesh.triangles[i];
    for (int k = 0; k < 3; ++k) {
      const Vec3& v = m->mesh.vertices[t[k]];
      for (double c : {v.x - 100, v.y, v.z})
        EXPECT_TRUE(c == 0 || c == 16) << v.x << " " << v.y << " " << v.z;
      ++edges[std::minmax(t[k], t[(k + 1) % 3])];
    }
    const Vec3& a = m->mesh.vertices[t[0]];
    area += Length(Cross(m->mesh.vertices[t[1]] - a, m->mesh.vertices[t[2]] - a)) / 2;
  }
  EXPECT_EQ(edges.size(), 18u);  // 12 cube edges + 6 face diagonals
  for (const auto& [edge, count] : edges) EXPECT_EQ(count, 2);
  EXPECT_DOUBLE_EQ(area, 6 * 16 * 16);
  EXPECT_EQ(m->stats.max.x, 116.0);
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
