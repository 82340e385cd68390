// Shape casts at a time: the first contact of a translated convex shape
// with the statics and the bodies (ShapeCast, query/sweep/) over the
// candidates whose bounds meet the swept box.
#include "shapes/shape_bounds.h"
#include "world/body_tree.h"
#include "world/scene_query.h"

namespace collide::internal {

namespace {

// Keeps the earliest contact; ties by TargetLess.
void Offer(const SweepResult& s, const HitTarget& target, std::size_t element, SceneCast& best) {
  if (!s.hit) return;
  if (!best.sweep.hit || s.t < best.sweep.t || (s.t == best.sweep.t && TargetLess(target, best.target))) {
    best = {s, target, element};
  }
}

}  // namespace

SceneCast CastShape(const Scene& scene, const Shape& shape, const Vec3& translation,
                    const QueryFilter& filter, bool with_bodies, const SweepOptions& options) {
  SceneCast best;
  const Aabb start = BoundsOf(shape);
  const Aabb box{Min(start.min, start.min + translation), Max(start.max, start.max + translation)};
  const StaticSet& statics = *scene.statics;
  std::vector<std::uint32_t> triangles;
  statics.Overlap(box, [&](std::uint32_t i) {
    const StaticElement& e = statics.elements[i];
    if (!Passes(filter, e.category) || !Overlaps(statics.bounds[i], box)) return;
    if (const TriangleMesh* mesh = statics.MeshOf(i)) {
      OverlapTriangles(*mesh, box, mesh->triangle_count(), triangles);
      for (std::uint32_t t : triangles) {
        Offer(ShapeCast(shape, translation, mesh->triangle(t), options),
              {HitTarget::Kind::kStatic, e.id, t, 0}, i, best);
      }
    } else {
      Offer(ShapeCast(shape, translation, *statics.ShapeOf(i), options),
            {HitTarget::Kind::kStatic, e.id, 0, 0}, i, best);
    }
  });
  if (with_bodies && scene.s0 != nullptr) {
    std::vector<PlacedPart> parts;
    scene.s0->tree.Overlap(box, [&](std::uint32_t i) {
      const BodyState& b = scene.body(i);
      if (!Passes(filter, b.category) || Ignored(filter, b.id)) return;
      scene.PlaceParts(i, parts);
      for (const PlacedPart& p : parts) {
        Offer(ShapeCast(shape, translation, p.shape, options), {HitTarget::Kind::kBody, b.id, 0, p.id}, 0,
              best);
      }
    });
  }
  return best;
}

}  // namespace collide::internal

namespace collide {

std::vector<ShapeCastResult> World::ShapeCasts(std::span<const ShapeCastQuery> queries) const {
  std::vector<ShapeCastResult> out(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    const ShapeCastQuery& query = queries[q];
    ShapeCastResult& r = out[q];
    Validate(query.shape, r.problems);
    const ShapeKind kind = KindOf(query.shape);
    if (kind == ShapeKind::kHalfspace || kind == ShapeKind::kConvexHull) {
      r.problems.push_back({"shape", "a cast shape must be a bounded primitive (not a hull or halfspace)"});
    }
    if (!IsValidNumber(query.translation)) r.problems.push_back({"translation", "not a valid number"});
    const std::optional<internal::Scene> at = internal::Begin(*this, query.at, r);
    if (!at) continue;
    const internal::Scene& scene = *at;
    const internal::SceneCast c =
        internal::CastShape(scene, query.shape, query.translation, query.filter, true, {});
    r.hit = c.sweep.hit;
    if (r.hit) {
      r.t = c.sweep.t;
      r.point = c.sweep.point;
      r.normal = c.sweep.normal;
      r.depth = c.sweep.depth;
      r.target = c.target;
    }
  }
  return out;
}

}  // namespace collide
