#include "bsp_brushes.h"

#include "absl/strings/str_cat.h"
#include "brush_hull.h"
#include "bsp_contents.h"

namespace collide::importer {
namespace {

// A hull costs O(sides^4) at worst: sides^2 clips make up to sides^2
// corners, welded and hulled pairwise (a real brush has about 2 sides
// corners). The sum is capped so that no input runs long; OpenArena's 38
// maps need at most 2.5e8, a quarter of it.
constexpr std::uint64_t kMaxBrushWork = std::uint64_t{1} << 30;

// Solid and opaque: CONTENTS_SOLID, and no shader of it (its contents
// shader, any side's) translucent. A caulk or nodraw side of such a brush
// blocks sight too: the brush is solid behind it.
bool Occludes(const BspFile& bsp, const BspBrush& brush) {
  const std::int32_t contents = bsp.shaders[brush.shader].flags.contents;
  if ((contents & kContentsSolid) == 0 || (contents & kContentsTranslucent) != 0) return false;
  for (std::int32_t k = 0; k < brush.num_sides; ++k) {
    const std::int32_t shader = bsp.brush_side_shaders[brush.first_side + k];
    if (shader < 0 || (bsp.shaders[shader].flags.contents & kContentsTranslucent) != 0) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<BrushHullOf>> WorldBrushHulls(const BspFile& bsp, CategoryMask selected,
                                                         const std::string& file) {
  const BspModel& world = bsp.models[0];
  const auto categories_of = [&](const BspBrush& brush) {
    return (CollisionCategories(bsp.shaders[brush.shader].flags.contents) |
            (Occludes(bsp, brush) ? MaskOf(Category::kOccluder) : 0)) &
           selected;
  };
  std::uint64_t work = 0;
  for (std::int32_t i = world.first_brush; i < world.first_brush + world.num_brushes; ++i) {
    const std::uint64_t sides = static_cast<std::uint64_t>(bsp.brushes[i].num_sides);
    if (categories_of(bsp.brushes[i]) != 0) work += sides * sides * sides * sides;
  }
  if (work > kMaxBrushWork) {
    return absl::ResourceExhaustedError(
        absl::StrCat(file, ": brushes of ", work, " sides^4 in all exceed the limit of ", kMaxBrushWork));
  }
  std::vector<BrushHullOf> hulls;
  std::vector<BspPlane> planes;
  for (std::int32_t i = world.first_brush; i < world.first_brush + world.num_brushes; ++i) {
    const BspBrush& brush = bsp.brushes[i];
    const CategoryMask categories = categories_of(brush);
    if (categories == 0) continue;
    planes.clear();
    for (std::int32_t k = 0; k < brush.num_sides; ++k) {
      planes.push_back(bsp.planes[bsp.brush_side_planes[brush.first_side + k]]);
    }
    hulls.push_back({categories, BrushHull(planes)});
  }
  return hulls;
}

}  // namespace collide::importer
