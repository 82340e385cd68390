// Shape casts against a mesh: the shape's bounding box swept along the
// translation is a ray from the box's center against the BVH's boxes grown by
// its half extents (bvh_traverse.h), visited nearest first; each leaf's
// triangles get the pair sweep (query/sweep/), and the best t so far prunes
// every box the swept box enters later.
#include <algorithm>
#include <limits>

#include "collide/mesh.h"
#include "mesh/bvh.h"
#include "mesh/bvh_traverse.h"
#include "mesh/shape_bounds.h"
#include "query/sweep/sweep_internal.h"

namespace collide {

MeshSweepResult ShapeCast(const Shape& shape, const Vec3& v, const TriangleMesh& mesh) {
  if (KindOf(shape) == ShapeKind::kHalfspace) return {{.status = QueryStatus::kUnsupported}, 0};
  if (mesh.bvh().nodes.empty() || !IsFinite(v)) return {};
  const Aabb box = internal::BoundsOf(shape);
  if (!IsFinite(box.min) || !IsFinite(box.max)) return {};
  const Vec3 center = (box.min + box.max) * 0.5;
  const Vec3 half = (box.max - box.min) * 0.5;
  const double length = Length(v);
  // A zero translation: any direction, reach 0 (boxes touching the shape's).
  const Vec3 unit = length > 0.0 ? v / length : Vec3{1, 0, 0};
  const Aabb& b = mesh.bounds();
  const double t_bound = Length(Max(Abs(center - b.min), Abs(center - b.max))) + Length(half);
  const internal::RayBoxes boxes = internal::SetUpRayBoxes(center, unit, t_bound, half);

  struct Visitor {
    const Shape& shape;
    const Vec3& v;
    const TriangleMesh& mesh;
    double length;
    MeshSweepResult best;
    double not_converged_t = std::numeric_limits<double>::infinity();
    float t_max_world;
    float TMax() const { return t_max_world; }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      for (std::uint32_t i = first; i < first + count; ++i) {
        const std::uint32_t id = mesh.bvh().triangles[i].id;
        const SweepResult s = internal::ShapeCast(shape, v, mesh.triangle(id), internal::SweepOptions{});
        if (s.status == QueryStatus::kNotConverged) not_converged_t = std::min(not_converged_t, s.t);
        if (!s.hit) continue;
        if (!best.sweep.hit || s.t < best.sweep.t || (s.t == best.sweep.t && id < best.triangle)) {
          best = {s, id};
          // World distance bound, with slack for the float box test.
          t_max_world = internal::RoundUp(s.t * length * (1.0 + 0x1p-40));
        }
      }
      return false;
    }
  } visitor{shape, v, mesh, length, {}, std::numeric_limits<double>::infinity(), internal::RoundUp(length)};
  internal::TraverseRay(mesh.bvh(), boxes, visitor);
  MeshSweepResult r = visitor.best;
  if (visitor.not_converged_t < (r.sweep.hit ? r.sweep.t : 2.0)) r.sweep.status = QueryStatus::kNotConverged;
  return r;
}

}  // namespace collide
