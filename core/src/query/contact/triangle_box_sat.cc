#include "query/contact/triangle_box_sat.h"

#include <cmath>

#include "query/closest/closest_point_box.h"
#include "query/closest/exact_cross.h"

namespace collide::internal {
namespace {

// Calls visit(axis, plus, minus) for each of the 13 axes (0 vectors
// skipped), until it returns true: moving B by `plus` along the axis
// separates the shapes, or by `minus` against it (both in units of the
// axis's length; negative: the shapes are apart by that much along it).
// kUnit: the triangle normal and edge axes made unit vectors first (the
// contact level needs their overlaps in length units; the separation test
// only their signs).
template <bool kUnit, typename Visit>
void ForEachAxis(const TriangleBox& f, Visit&& visit) {
  const Vec3 *v = f.v, &lo = f.lo, &hi = f.hi;
  // The box's faces: exact, on its bounds.
  for (int k = 0; k < 3; ++k) {
    const double tmin = Min(Min(v[0][k], v[1][k]), v[2][k]);
    const double tmax = Max(Max(v[0][k], v[1][k]), v[2][k]);
    if (visit(Axis(k, 1.0), tmax - lo[k], hi[k] - tmin)) return;
  }
  const Vec3 c = (lo + hi) * 0.5, h = (hi - lo) * 0.5;
  // Overlaps along a (non-zero) axis l of the three vertices' interval and
  // the box's, centre c, radius sum h_k |l_k|.
  const auto along = [&](Vec3 l) {
    if constexpr (kUnit) l = LengthAndUnitOf(l, LengthSquared(l)).unit;
    const double t0 = Dot(l, v[0]), t1 = Dot(l, v[1]), t2 = Dot(l, v[2]);
    const double tmin = Min(Min(t0, t1), t2), tmax = Max(Max(t0, t1), t2);
    const double bc = Dot(l, c), br = Dot(Abs(l), h);
    return visit(l, tmax - (bc - br), (bc + br) - tmin);
  };
  const Vec3 e[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  const Vec3 ac = v[2] - v[0];
  Vec3 n = Cross(e[0], ac);
  // A sliver's normal (sine below 1e-3, as ClosestPointOnTriangle's thin
  // test): its plain cross product cancels.
  if (!(LengthSquared(n) > 1e-6 * LengthSquared(e[0]) * LengthSquared(ac))) n = ExactCross(e[0], ac);
  if (!(n == Vec3{}) && along(n)) return;
  for (const Vec3& d : e) {
    // d x a_0, d x a_1, d x a_2: exact given d.
    const Vec3 axes[3] = {{0.0, d.z, -d.y}, {-d.z, 0.0, d.x}, {d.y, -d.x, 0.0}};
    for (const Vec3& l : axes) {
      if (!(l == Vec3{}) && along(l)) return;
    }
  }
}

}  // namespace

bool SeparatedTriangleBox(const TriangleBox& f) {
  bool separated = false;
  ForEachAxis<false>(f, [&](const Vec3&, double plus, double minus) {
    separated = (plus < 0.0) | (minus < 0.0);
    return separated;
  });
  return separated;
}

TriangleBoxOverlap LeastOverlapTriangleBox(const TriangleBox& f) {
  TriangleBoxOverlap o{false, kInfinity, Vec3{1, 0, 0}};
  ForEachAxis<true>(f, [&](const Vec3& l, double plus, double minus) {
    o.separated = (plus < 0.0) | (minus < 0.0);
    if (plus < o.depth) o.depth = plus, o.normal = l;
    if (minus < o.depth) o.depth = minus, o.normal = -l;
    return o.separated;
  });
  return o;
}

}  // namespace collide::internal
