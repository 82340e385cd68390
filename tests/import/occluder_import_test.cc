// The occluder category (map_import.h Category::kOccluder) on a synthetic
// BSP: solid opaque brushes (caulked ones too) are in it as closed hulls,
// counter-clockwise seen from outside; translucent brushes (glass, by their
// contents shader or one side's), non-solid ones and patches are not; glTF
// and OBJ files give nothing for it alone.
#include <string>

#include "collide/import/map_import.h"
#include "gtest/gtest.h"
#include "synthetic_bsp.h"

namespace collide::importer {
namespace {

using ::collide::testing::SyntheticBsp;

constexpr std::int32_t kSolid = 0x1, kWater = 0x20, kTranslucent = 0x20000000, kNoDraw = 0x80;

TEST(OccluderImport, OpaqueSolidBrushesOnlyAsOutwardHulls) {
  SyntheticBsp bsp;
  const std::int32_t wall = bsp.Shader("textures/base/wall", 0, kSolid);
  const std::int32_t caulk = bsp.Shader("textures/common/caulk", kNoDraw, kSolid);
  const std::int32_t glass = bsp.Shader("textures/base/glass", 0, kSolid | kTranslucent);
  const std::int32_t water = bsp.Shader("textures/liquids/water", 0, kWater);
  bsp.BoxBrush({0, 0, 0}, {16, 64, 64}, wall);
  bsp.BoxBrush({32, 0, 0}, {48, 64, 64}, caulk);
  bsp.BoxBrush({64, 0, 0}, {80, 64, 64}, glass);
  bsp.BoxBrush({96, 0, 0}, {112, 64, 64}, water);
  // An opaque brush with one glass side: not an occluder.
  const std::int32_t mixed = bsp.BoxBrush({128, 0, 0}, {144, 64, 64}, wall);
  bsp.brush_side_shaders[bsp.brushes[mixed].first_side + 2] = glass;
  const absl::StatusOr<ImportedMesh> m =
      ImportBspBytes(bsp.Bytes(), "level", {.categories = MaskOf(Category::kOccluder)});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->stats.categories[static_cast<int>(Category::kOccluder)].brushes, 2u);
  ASSERT_EQ(m->mesh.triangles.size(), 24u);  // two boxes of 12
  // Outward: each triangle's normal points away from its box's centre.
  for (const TriangleIndices& t : m->mesh.triangles) {
    const Vec3 a = m->mesh.vertices[t[0]], b = m->mesh.vertices[t[1]], c = m->mesh.vertices[t[2]];
    const Vec3 centre = a.x < 24 ? Vec3{8, 32, 32} : Vec3{40, 32, 32};
    EXPECT_GT(Dot(Cross(b - a, c - a), (a + b + c) / 3 - centre), 0);
  }
  // Solid keeps every solid brush, glass and the mixed one included.
  const absl::StatusOr<ImportedMesh> solid =
      ImportBspBytes(bsp.Bytes(), "level", {.categories = MaskOf(Category::kSolid)});
  ASSERT_TRUE(solid.ok());
  EXPECT_EQ(solid->stats.categories[static_cast<int>(Category::kSolid)].brushes, 4u);
  EXPECT_EQ(ParseCategories("occluder").value(), MaskOf(Category::kOccluder));
}

}  // namespace
}  // namespace collide::importer
