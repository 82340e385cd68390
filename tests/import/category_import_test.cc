// Map geometry by category on a synthetic BSP: a wall of caulk (never drawn)
// is solid, a window's drawn face a unit off its brush collides at the brush
// plane, clip and water brushes have their own categories, and the options
// and names of categories are checked.
#include <cmath>
#include <string>
#include <vector>

#include "collide/import/map_import.h"
#include "collide/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic_bsp.h"

namespace collide::importer {
namespace {

using ::collide::testing::SyntheticBsp;
using ::testing::HasSubstr;

constexpr std::int32_t kSolid = 0x1, kWater = 0x20, kPlayerClip = 0x10000, kNoDraw = 0x80;

// A 256 x 256 floor (drawn top), a caulk wall across it at x 128..144 (no
// face), a window brush x 48..64 whose drawn face sits at x 47, a clip brush
// and a pool of water (its surface drawn, not solid).
std::string Level() {
  SyntheticBsp bsp;
  const std::int32_t floor = bsp.Shader("textures/base/floor", 0, kSolid);
  const std::int32_t caulk = bsp.Shader("textures/common/caulk", kNoDraw, kSolid);
  const std::int32_t glass = bsp.Shader("textures/base/glass", 0, kSolid);
  const std::int32_t clip = bsp.Shader("textures/common/clip", kNoDraw, kPlayerClip);
  const std::int32_t water = bsp.Shader("textures/liquids/water", 0, kWater);
  bsp.BoxBrush({0, 0, -16}, {256, 256, 0}, floor);
  bsp.PolygonFace({{0, 0, 0}, {256, 0, 0}, {256, 256, 0}, {0, 256, 0}}, floor);
  bsp.BoxBrush({128, 0, 0}, {144, 256, 128}, caulk);
  bsp.BoxBrush({48, 0, 0}, {64, 64, 64}, glass);
  bsp.PolygonFace({{47, 0, 0}, {47, 64, 0}, {47, 64, 64}, {47, 0, 64}}, glass);
  bsp.BoxBrush({0, 240, 0}, {16, 256, 256}, clip);
  bsp.BoxBrush({160, 0, -16}, {256, 64, 0}, water);
  bsp.PolygonFace({{160, 0, 0}, {256, 0, 0}, {256, 64, 0}}, water);
  return bsp.Bytes();
}

ImportedMesh Import(CategoryMask categories) {
  absl::StatusOr<ImportedMesh> m = ImportBspBytes(Level(), "level", {.categories = categories});
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : ImportedMesh{};
}

const CategoryStats& Of(const ImportedMesh& m, Category c) { return m.stats.categories[static_cast<int>(c)]; }

// Distance along +x from `origin` to the mesh, or -1 for a miss.
double HitX(const ImportedMesh& m, const Vec3& origin) {
  const TriangleMesh mesh(m.mesh);
  const MeshRayHit hit = RayCastClosest(mesh, {origin, {1, 0, 0}});
  return hit.hit ? hit.distance : -1;
}

TEST(CategoryImport, ACaulkWallIsSolidButNotDrawn) {
  const ImportedMesh render = Import(MaskOf(Category::kRender));
  const ImportedMesh solid = Import(MaskOf(Category::kSolid));
  EXPECT_EQ(render.mesh.triangles.size(), 4u);  // floor and window; the water surface is not solid
  EXPECT_EQ(Of(solid, Category::kSolid).brushes, 3u);
  EXPECT_EQ(Of(solid, Category::kSolid).triangles, 36u);
  EXPECT_EQ(solid.mesh.triangles.size(), 36u);
  // Through the caulk wall (clear of the window): render geometry lets a ray
  // through, the solid hulls stop it at the wall's plane.
  EXPECT_EQ(HitX(render, {100, 128, 32}), -1);
  EXPECT_EQ(HitX(solid, {100, 128, 32}), 28);
  EXPECT_EQ(Of(solid, Category::kSolid).min, (Vec3{0, 0, -16}));
  EXPECT_EQ(Of(solid, Category::kSolid).max, (Vec3{256, 256, 128}));
}

TEST(CategoryImport, AWindowCollidesAtItsBrushPlaneNotItsDrawnFace) {
  EXPECT_EQ(HitX(Import(MaskOf(Category::kRender)), {0, 32, 32}), 47);
  EXPECT_EQ(HitX(Import(MaskOf(Category::kSolid)), {0, 32, 32}), 48);
}

TEST(CategoryImport, ClipAndWaterBrushesHaveTheirOwnCategories) {
  const ImportedMesh all = Import(kAllCategories);
  EXPECT_EQ(Of(all, Category::kRender).triangles, 4u);
  EXPECT_EQ(Of(all, Category::kSolid).brushes, 3u);
  EXPECT_EQ(Of(all, Category::kPlayerClip).brushes, 1u);
  EXPECT_EQ(Of(all, Category::kPlayerClip).max, (Vec3{16, 256, 256}));
  EXPECT_EQ(Of(all, Category::kWater).brushes, 1u);
  EXPECT_EQ(Of(all, Category::kWater).triangles, 12u);
  EXPECT_EQ(Of(all, Category::kMonsterClip).triangles, 0u);
  EXPECT_EQ(all.stats.clip_brushes, 1u);
  EXPECT_EQ(all.mesh.triangles.size(), 4u + 5 * 12);

  const ImportedMesh player = Import(kPlayerCollision);
  EXPECT_EQ(player.mesh.triangles.size(), 4u * 12);
  EXPECT_EQ(HitX(player, {-8, 248, 32}), 8);                    // the clip brush
  EXPECT_EQ(HitX(Import(kShotCollision), {-8, 248, 32}), 136);  // shots pass it: the caulk wall
  // The legacy option adds the clip brushes to the drawn faces.
  const absl::StatusOr<ImportedMesh> legacy = ImportBspBytes(Level(), "level", {.clip_brushes = true});
  ASSERT_TRUE(legacy.ok());
  EXPECT_EQ(legacy->mesh.triangles.size(), 4u + 12);
  EXPECT_EQ(legacy->stats.clip_brushes, 1u);
}

// A brush without a hull is counted, not imported: one missing a side
// (unbounded), one whose sides exclude each other, one thinner than the
// weld; a wedge (five sides, a bevel touching one edge) is a closed hull.
TEST(CategoryImport, BrushesWithoutAHullAreDropped) {
  SyntheticBsp bsp;
  const std::int32_t solid = bsp.Shader("textures/base/wall", 0, kSolid);
  const double r = std::sqrt(0.5);
  bsp.Brush({{{1, 0, 0}, 16}, {{-1, 0, 0}, 0}, {{0, 1, 0}, 16}, {{0, -1, 0}, 0}, {{0, 0, 1}, 16}}, solid);
  bsp.Brush({{{1, 0, 0}, 16},
             {{-1, 0, 0}, -32},
             {{0, 1, 0}, 16},
             {{0, -1, 0}, 0},
             {{0, 0, 1}, 16},
             {{0, 0, -1}, 0}},
            solid);
  bsp.BoxBrush({0, 0, 0}, {16, 16, 0.0005}, solid);
  bsp.Brush({{{-1, 0, 0}, 0},
             {{0, -1, 0}, 0},
             {{0, 0, 1}, 16},
             {{0, 0, -1}, 0},
             {{r, r, 0}, 16 * r},
             {{r, -r, 0}, 16 * r}},
            solid);
  const absl::StatusOr<ImportedMesh> m =
      ImportBspBytes(bsp.Bytes(), "dropped", {.categories = kAllCategories});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(Of(*m, Category::kSolid).dropped_brushes, 3u);
  EXPECT_EQ(Of(*m, Category::kSolid).brushes, 1u);
  EXPECT_EQ(Of(*m, Category::kSolid).triangles, 8u);  // a triangular prism: 2 ends, 3 quads
  EXPECT_LT(Length(Of(*m, Category::kSolid).max - Vec3{16, 16, 16}), 1e-6);  // float planes at 45 degrees
}

TEST(CategoryImport, CategoryBoundsFollowTheAxisAndScale) {
  const absl::StatusOr<ImportedMesh> m =
      ImportBspBytes(Level(), "level", {.up = UpAxis::kY, .scale = 0.5, .categories = kAllCategories});
  ASSERT_TRUE(m.ok());
  // Z up (x, y, z) -> Y up (x, z, -y), halved.
  EXPECT_EQ(Of(*m, Category::kSolid).min, (Vec3{0, -8, -128}));
  EXPECT_EQ(Of(*m, Category::kSolid).max, (Vec3{128, 64, 0}));
  EXPECT_EQ(m->stats.min, Of(*m, Category::kSolid).min);
}

TEST(CategoryImport, OptionsAndNames) {
  EXPECT_EQ(ImportBspBytes(Level(), "level", {.categories = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(ImportBspBytes(Level(), "level", {.categories = 1u << 9}).status().message()),
              HasSubstr("level: categories 512 has bits beyond"));
  EXPECT_EQ(ParseCategories("all").value(), kAllCategories);
  EXPECT_EQ(ParseCategories("solid,player_clip").value(), kPlayerCollision);
  EXPECT_THAT(std::string(ParseCategories("solid,glass").status().message()), HasSubstr("\"glass\""));
  EXPECT_FALSE(ParseCategories("").ok());
  for (int c = 0; c < kCategoryCount; ++c) {
    const Category category = static_cast<Category>(c);
    EXPECT_EQ(ParseCategories(CategoryName(category)).value(), MaskOf(category));
  }
}

}  // namespace
}  // namespace collide::importer
