#include "query/round/round_pair.h"

#include <cmath>
#include <limits>

namespace collide::internal {
namespace {

// Removes from v its component along the non-zero axis d (one Gram-Schmidt
// step). Used where v must be perpendicular to d (the closest point lies in
// the interior of segment d, so v . d = 0 exactly in exact arithmetic).
Vec3 RejectFrom(const Vec3& v, const Vec3& d) { return v - d * (Dot(v, d) / Dot(d, d)); }

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

bool NonParallel(const Vec3& d1, const Vec3& d2, const Vec3& n) {
  return Dot(n, n) > kParallelSinSquared * Dot(d1, d1) * Dot(d2, d2);
}

// The unit normal A -> B.
Vec3 ContactNormal(const CoreClosest& cp, const CoreLine& a, const CoreLine& b) {
  const Vec3 v = SeparationDirection(cp, a, b);
  return v != Vec3{} ? NormalizedOr(v, Vec3{}) : TouchingCoresNormal(a.axis, b.axis);
}

}  // namespace

Vec3 SeparationDirection(const CoreClosest& cp, const CoreLine& a, const CoreLine& b) {
  // A point core has s = 0 (t = 0), never inside.
  const bool s_inside = cp.s > 0.0 && cp.s < 1.0;
  const bool t_inside = cp.t > 0.0 && cp.t < 1.0;
  const Vec3 v = cp.point_b - cp.point_a;
  if (s_inside && t_inside) {
    // Skew: the projection of (b.start - a.start) on the common
    // perpendicular n, exactly perpendicular to both segments.
    const Vec3 n = Cross(a.axis, b.axis);
    return NonParallel(a.axis, b.axis, n) ? n * (Dot(b.start - a.start, n) / Dot(n, n))
                                          : RejectFrom(v, a.axis);
  }
  if (s_inside) return RejectFrom(v, a.axis);
  if (t_inside) return RejectFrom(v, b.axis);
  return v;
}

Vec3 TouchingCoresNormal(const Vec3& axis_a, const Vec3& axis_b) {
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

PairResult ContactFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                              double rb) {
  const double r = ra + rb;
  const double d2 = LengthSquared(cp.point_b - cp.point_a);
  const bool hit = d2 <= r * r;
  const Vec3 normal = ContactNormal(cp, a, b);
  // sqrt(d2) - r and d2 - r*r can disagree in sign within an ulp of
  // touching; hit is decided by the squared test (as at the intersect
  // level) and the distance follows it, so hit == (distance <= 0) holds.
  double distance = std::sqrt(d2) - r;
  if (hit && distance > 0.0) distance = 0.0;
  if (!hit && distance <= 0.0) distance = std::numeric_limits<double>::denorm_min();
  // Apart: the surface points facing each other. Overlapping: the deepest
  // points, A's surface point along +normal and B's along -normal, so that
  // point_b - point_a = (d - ra - rb) * normal = distance * normal.
  return {QueryStatus::kOk, hit, distance, cp.point_a + normal * ra, cp.point_b - normal * rb, normal};
}

PairResult DistanceFromClosest(const CoreClosest& cp, const CoreLine& a, const CoreLine& b, double ra,
                               double rb) {
  const PairResult contact = ContactFromClosest(cp, a, b, ra, rb);
  if (!contact.hit) return contact;
  // Along the normal from A's core point, the offsets x in [d - rb, ra] are
  // within both radii; [0, d] keeps the point between the cores. The
  // intersection is non-empty because d <= ra + rb; take its midpoint.
  const double d = Length(cp.point_b - cp.point_a);
  const double lo = d - rb > 0.0 ? d - rb : 0.0;
  const double hi = d < ra ? d : ra;
  const Vec3 p = cp.point_a + contact.normal * (0.5 * (lo + hi));
  return {QueryStatus::kOk, true, 0.0, p, p, Vec3{}};
}

}  // namespace collide::internal
