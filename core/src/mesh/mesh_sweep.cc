// Shape casts against a mesh: the shape's bounding box swept along the
// translation is a ray from the box's center against the BVH's boxes grown by
// its half extents (bvh_traverse.h), visited nearest first; each leaf's
// triangles get the pair sweep (query/sweep/), and the best t so far prunes
// every box the swept box enters later.
#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/mesh.h"
#include "mesh/bvh.h"
#include "mesh/bvh_traverse.h"
#include "query/sweep/sweep_internal.h"
#include "shapes/shape_bounds.h"

namespace collide {
namespace {

double MaxAbs(const Vec3& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

// Whether the shape's box (center c, half extents h), moved by t v for some t
// in [0, t_lim], can touch the triangle: it must reach the triangle's plane
// (|n . (c + t v - a)| <= the box's half extent along n: an interval of t)
// and, over that interval, overlap the triangle's own box. False only when
// the shape (inside its box) certainly cannot touch the triangle then: the
// pair sweep (~2,700 instructions for a capsule's GJK cast) is skipped for
// most triangles of the leaves a sweep visits. The margin covers the
// round-off of n (at most a few eps |b - a| |c - a| per component, however
// thin the triangle) over every length involved, with a factor 1e6 to spare.
bool MayTouch(const Vec3& c, const Vec3& h, const Vec3& v, const Triangle& tri, double t_lim) {
  const Vec3 e1 = tri.b - tri.a, e2 = tri.c - tri.a, ca = c - tri.a;
  const Vec3 n = Cross(e1, e2);
  const Vec3 an = Abs(n);
  const double scale = MaxAbs(ca) + MaxAbs(v) + MaxAbs(e1) + MaxAbs(e2) + MaxAbs(h);
  const double reach = Dot(an, h) + 1e-9 * (an.x + an.y + an.z + 6 * MaxAbs(e1) * MaxAbs(e2)) * scale;
  const double s0 = Dot(n, ca), sv = Dot(n, v);
  double t0 = 0.0, t1 = t_lim;
  if (sv == 0.0) {
    if (std::fabs(s0) > reach) return false;
  } else {
    double ta = (-reach - s0) / sv, tb = (reach - s0) / sv;
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta), t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  const double pad = 1e-9 * scale;
  for (int k = 0; k < 3; ++k) {
    const double lo = c[k] - h[k] + std::min(t0 * v[k], t1 * v[k]) - pad;
    const double hi = c[k] + h[k] + std::max(t0 * v[k], t1 * v[k]) + pad;
    if (std::min({tri.a[k], tri.b[k], tri.c[k]}) > hi || std::max({tri.a[k], tri.b[k], tri.c[k]}) < lo)
      return false;
  }
  return true;
}

}  // namespace

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
    const Vec3& center;
    const Vec3& half;
    const TriangleMesh& mesh;
    double length;
    MeshSweepResult best;
    double not_converged_t = std::numeric_limits<double>::infinity();
    float t_max_world;
    float TMax() const { return t_max_world; }
    bool Leaf(std::uint32_t first, std::uint32_t count) {
      internal::PrefetchLeafVertices(mesh.bvh(), mesh.vertices(), first, count);
      for (std::uint32_t i = first; i < first + count; ++i) {
        const std::uint32_t id = mesh.bvh().triangles[i].id;
        // A start contact (t = 0) is beaten only by a smaller index; on dense
        // maps a capsule starts touching dozens of triangles, each a
        // conservative advancement from its Contact.
        if (best.sweep.hit && best.sweep.t == 0.0 && id > best.triangle) continue;
        const Triangle tri = internal::LeafTriangle(mesh.bvh(), mesh.vertices(), i);
        // Up to the best t, with slack so that an equal t (a tie on the
        // index) is still tested.
        const double t_lim = best.sweep.hit ? best.sweep.t * (1.0 + 0x1p-40) + 0x1p-60 : 1.0;
        if (!MayTouch(center, half, v, tri, t_lim)) continue;
        const SweepResult s = internal::ShapeCast(shape, v, tri, internal::SweepOptions{});
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
  } visitor{shape,
            v,
            center,
            half,
            mesh,
            length,
            {},
            std::numeric_limits<double>::infinity(),
            internal::RoundUp(length)};
  internal::TraverseRay(mesh.bvh(), boxes, visitor);
  MeshSweepResult r = visitor.best;
  if (visitor.not_converged_t < (r.sweep.hit ? r.sweep.t : 2.0)) r.sweep.status = QueryStatus::kNotConverged;
  return r;
}

}  // namespace collide
