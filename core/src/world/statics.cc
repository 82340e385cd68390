#include "world/statics.h"

#include <algorithm>
#include <string>

#include "shapes/shape_bounds.h"

namespace collide {

bool World::ValidateStatics(std::span<const StaticElement> statics, std::vector<Violation>& out) {
  const std::size_t before = out.size();
  // Ids sorted with their positions: each element whose id an earlier one
  // has is named once, in O(n log n) however many share an id.
  std::vector<std::pair<std::int64_t, std::size_t>> ids(statics.size());
  for (std::size_t i = 0; i < statics.size(); ++i) ids[i] = {statics[i].id, i};
  std::sort(ids.begin(), ids.end());
  std::vector<bool> repeated(statics.size());
  for (std::size_t k = 1; k < ids.size(); ++k) repeated[ids[k].second] = ids[k].first == ids[k - 1].first;
  for (std::size_t i = 0; i < statics.size(); ++i) {
    const std::string at = "statics[" + std::to_string(i) + "]";
    const StaticElement& e = statics[i];
    if (repeated[i]) out.push_back({at + ".id", "duplicate static id " + std::to_string(e.id)});
    if (const auto* shape = std::get_if<Shape>(&e.geometry)) {
      std::vector<Violation> inner;
      Validate(*shape, inner);
      for (auto& v : inner) out.push_back({at + ".shape." + v.field, v.description});
    } else if (std::get<1>(e.geometry) == nullptr) {
      out.push_back({at + ".mesh", "null mesh"});
    }
  }
  return out.size() == before;
}

namespace internal {

const TriangleMesh* StaticSet::MeshOf(std::size_t i) const {
  const auto* m = std::get_if<std::shared_ptr<const TriangleMesh>>(&elements[i].geometry);
  return m != nullptr ? m->get() : nullptr;
}

const Shape* StaticSet::ShapeOf(std::size_t i) const { return std::get_if<Shape>(&elements[i].geometry); }

std::unique_ptr<StaticSet> MakeStaticSet(std::vector<StaticElement> statics) {
  auto set = std::make_unique<StaticSet>();
  for (std::size_t i = 0; i < statics.size(); ++i) {
    // An invalid element is left out rather than trusted (ValidateStatics
    // names it); a null mesh likewise.
    std::vector<Violation> problems;
    if (!World::ValidateStatics(std::span(&statics[i], 1), problems)) continue;
    StaticElement e = std::move(statics[i]);
    if (auto* shape = std::get_if<Shape>(&e.geometry)) {
      if (auto* hull = std::get_if<ConvexHull>(shape)) {
        set->hull_vertices.push_back(
            std::make_unique<std::vector<Vec3>>(hull->vertices.begin(), hull->vertices.end()));
        hull->vertices = *set->hull_vertices.back();
      }
      set->bounds.push_back(BoundsOf(*shape));
    } else {
      set->bounds.push_back(std::get<1>(e.geometry)->bounds());
    }
    set->elements.push_back(std::move(e));
  }
  std::vector<Aabb> boxes;
  for (std::size_t i = 0; i < set->elements.size(); ++i) {
    const Aabb& b = set->bounds[i];
    const bool finite = std::isfinite(b.min.x) && std::isfinite(b.min.y) && std::isfinite(b.min.z) &&
                        std::isfinite(b.max.x) && std::isfinite(b.max.y) && std::isfinite(b.max.z);
    (finite ? set->bounded : set->unbounded).push_back(static_cast<std::uint32_t>(i));
    if (!finite) continue;
    const Vec3 pad = (Abs(b.min) + Abs(b.max)) * 1e-12 + Vec3{1e-300, 1e-300, 1e-300};
    boxes.push_back({b.min - pad, b.max + pad});
  }
  set->tree.Build(std::move(boxes));
  return set;
}

}  // namespace internal
}  // namespace collide
