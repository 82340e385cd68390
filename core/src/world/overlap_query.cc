// Overlap queries at a time: every static element or triangle and every body
// part the shape touches, in TargetLess order.
#include <algorithm>

#include "collide/query.h"
#include "shapes/shape_bounds.h"
#include "world/body_tree.h"
#include "world/scene_query.h"

namespace collide {

std::vector<OverlapQueryResult> World::Overlaps(std::span<const OverlapQuery> queries) const {
  std::vector<OverlapQueryResult> out(queries.size());
  std::vector<std::uint32_t> triangles;
  std::vector<internal::PlacedPart> parts;
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const OverlapQuery& query = queries[q];
    OverlapQueryResult& r = out[q];
    Validate(query.shape, r.problems);
    const std::optional<internal::Scene> at = internal::Begin(*this, query.at, r);
    if (!at) continue;
    const internal::Scene& scene = *at;
    const Aabb box = internal::BoundsOf(query.shape);
    // Every hit is counted; only the first max_results in TargetLess order
    // are kept, the list cut back whenever it doubles, so that memory stays
    // in proportion to max_results however many targets the shape touches.
    const auto less = [](const OverlapHit& a, const OverlapHit& b) { return TargetLess(a.target, b.target); };
    const auto cut = [&] {
      if (r.hits.size() <= query.max_results) return;
      std::nth_element(r.hits.begin(), r.hits.begin() + static_cast<std::ptrdiff_t>(query.max_results),
                       r.hits.end(), less);
      r.hits.resize(query.max_results);
    };
    const auto add = [&](const HitTarget& target, const Shape& other) {
      const PairResult pr = Query(query.level, query.shape, other);
      if (!pr.hit) return;
      ++r.total_hits;
      r.hits.push_back({target, pr});
      if (r.hits.size() >= 2 * query.max_results + 64) cut();
    };
    const internal::StaticSet& statics = *statics_;
    statics.Overlap(box, [&](std::uint32_t i) {
      const StaticElement& e = statics.elements[i];
      if (!internal::Passes(query.filter, e.category) || !internal::Overlaps(statics.bounds[i], box)) return;
      if (const TriangleMesh* mesh = statics.MeshOf(i)) {
        OverlapTriangles(*mesh, query.shape, mesh->triangle_count(), triangles);
        for (std::uint32_t t : triangles) add({HitTarget::Kind::kStatic, e.id, t, 0}, mesh->triangle(t));
      } else {
        add({HitTarget::Kind::kStatic, e.id, 0, 0}, *statics.ShapeOf(i));
      }
    });
    if (scene.s0 != nullptr) {
      scene.s0->tree.Overlap(box, [&](std::uint32_t i) {
        const internal::BodyState& b = scene.body(i);
        if (!internal::Passes(query.filter, b.category) || internal::Ignored(query.filter, b.id)) return;
        scene.PlaceParts(i, parts);
        for (const auto& p : parts) add({HitTarget::Kind::kBody, b.id, 0, p.id}, p.shape);
      });
    }
    cut();
    std::sort(r.hits.begin(), r.hits.end(), less);
  }
  return out;
}

}  // namespace collide
