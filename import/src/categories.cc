// Category names and the contents bits behind each collision category.
#include <array>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bsp_contents.h"

namespace collide::importer {
namespace {

// Indexed by Category.
constexpr std::array<const char*, kCategoryCount> kNames = {"render", "solid", "player_clip", "monster_clip",
                                                            "water",  "slime", "lava",        "occluder"};
constexpr std::array<std::pair<std::int32_t, Category>, 6> kContentsOf = {{
    {kContentsSolid, Category::kSolid},
    {kContentsPlayerClip, Category::kPlayerClip},
    {kContentsMonsterClip, Category::kMonsterClip},
    {kContentsWater, Category::kWater},
    {kContentsSlime, Category::kSlime},
    {kContentsLava, Category::kLava},
}};

}  // namespace

std::string_view CategoryName(Category category) { return kNames[static_cast<int>(category)]; }

absl::StatusOr<CategoryMask> ParseCategories(std::string_view list) {
  if (list == "all") return kAllCategories;
  CategoryMask mask = 0;
  for (absl::string_view name : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    int found = 0;
    while (found < kCategoryCount && name != kNames[found]) ++found;
    if (found == kCategoryCount) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown category \"", name, "\" (all, ", absl::StrJoin(kNames, ", "), ")"));
    }
    mask |= MaskOf(static_cast<Category>(found));
  }
  return mask;
}

CategoryMask CollisionCategories(std::int32_t contents) {
  CategoryMask mask = 0;
  for (const auto& [bit, category] : kContentsOf) {
    if (contents & bit) mask |= MaskOf(category);
  }
  return mask;
}

}  // namespace collide::importer
