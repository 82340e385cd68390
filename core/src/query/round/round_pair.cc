#include "query/round/round_pair.h"

#include <cmath>
#include <limits>

namespace collide::internal {
namespace {

// The unit vector perpendicular to the non-zero u nearest +x: the projection
// of +x on the plane normal to u, written as (uy^2 + uz^2, -ux uy, -ux uz)
// (|u| = 1) to avoid the cancellation of 1 - ux^2. When u is along x, the
// projection of +y instead.
Vec3 PerpendicularNearestX(const Vec3& axis) {
  const Vec3 u = NormalizedOr(axis, Vec3{1, 0, 0});
  const Vec3 from_x{u.y * u.y + u.z * u.z, -u.x * u.y, -u.x * u.z};
  const Vec3 from_y{-u.y * u.x, u.x * u.x + u.z * u.z, -u.y * u.z};
  return NormalizedOr(from_x, NormalizedOr(from_y, Vec3{0, 0, 1}));
}

// n or -n, whichever has its first non-zero component (x, then y, then z)
// positive.
Vec3 PreferPositive(const Vec3& n) {
  const double lead = n.x != 0.0 ? n.x : (n.y != 0.0 ? n.y : n.z);
  return lead < 0.0 ? -n : n;
}

// point_b - point_a with its round-off corrected (see SeparationOf): the
// offset's projection on the common perpendicular, or its rejection from the
// segment whose interior holds the closest point. Zero when the cores touch.
Vec3 SeparationDirection(const CoreClosest& cp, const CoreLine& a, const CoreLine& b) {
  const bool s_inside = cp.s > 0.0 && cp.s < 1.0;
  const bool t_inside = cp.t > 0.0 && cp.t < 1.0;
  const Vec3 v = cp.point_b - cp.point_a;
  if (s_inside && t_inside) {
    const Vec3 n = Cross(a.axis, b.axis);
    return NonParallel(a.axis, b.axis, n) ? n * (Dot(b.start - a.start, n) / Dot(n, n))
                                          : RejectFrom(v, a.axis);
  }
  if (s_inside) return RejectFrom(v, a.axis);
  if (t_inside) return RejectFrom(v, b.axis);
  return v;
}

}  // namespace

Vec3 TouchingSegmentCoresNormal(Vec3 axis_a, Vec3 axis_b) {
  const bool has_a = axis_a != Vec3{};
  const bool has_b = axis_b != Vec3{};
  if (has_a && has_b) {
    const Vec3 n = Cross(axis_a, axis_b);
    if (NonParallel(axis_a, axis_b, n)) return PreferPositive(NormalizedOr(n, Vec3{}));
  }
  if (has_a) return PerpendicularNearestX(axis_a);
  if (has_b) return PerpendicularNearestX(axis_b);
  return {1.0, 0.0, 0.0};
}

namespace {

// The hot path's closest points, recomputed here by the same inline code.
template <typename CoreA, typename CoreB>
Vec3 RobustNormalOf(const CoreA& core_a, const CoreB& core_b) {
  const CoreLine a = LineOf(core_a);
  const CoreLine b = LineOf(core_b);
  const Vec3 v = SeparationDirection(Closest(core_a, core_b), a, b);
  return v != Vec3{} ? NormalizedOr(v, Vec3{}) : TouchingCoresNormal(a.axis, b.axis);
}

}  // namespace

Vec3 RobustCoreNormal(PointCore a, PointCore b) { return RobustNormalOf(a, b); }
Vec3 RobustCoreNormal(PointCore a, SegmentCore b) { return RobustNormalOf(a, b); }
Vec3 RobustCoreNormal(SegmentCore a, PointCore b) { return RobustNormalOf(a, b); }
Vec3 RobustCoreNormal(SegmentCore a, SegmentCore b) { return RobustNormalOf(a, b); }

}  // namespace collide::internal
