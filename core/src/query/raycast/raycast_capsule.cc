// Ray cast against a capsule: the infinite cylinder about its axis, then the
// ball at the end beyond which the ray enters that cylinder.
//
// Why one cylinder test and one ball test suffice: every point of the
// capsule lies inside the infinite cylinder. If the ray enters the cylinder
// at an axial coordinate within the segment, that entry is on the capsule's
// side and is the first hit. If it enters beyond end a (y < 0) (or starts in
// the cylinder beyond a), it can only reach the rest of the capsule by
// crossing the disk y = 0 inside the cylinder, which lies in the ball at a;
// so its first hit, if any, is on that ball (Inigo Quilez's capsule
// intersector uses the same split).
#include <cmath>

#include "query/closest/closest.h"
#include "query/kernels_round.h"
#include "query/raycast/ray_ball.h"

namespace collide::internal {

RayHit RayCastCapsule(const Ray& ray, const Capsule& c) {
  const Vec3 u = UnitDirection(ray);
  const double r = c.radius;
  const PointOnSegment nearest = ClosestPointOnSegment(ray.origin, c.a, c.b);
  if (LengthSquared(ray.origin - nearest.point) <= r * r) return InsideHit(ray, u);
  const Vec3 axis = c.b - c.a;
  const double len2 = LengthSquared(axis);
  if (len2 == 0.0) return RayCastBall(ray, u, c.a, r);

  // Cylinder frame: y along the unit axis w from c.a, perpendicular parts.
  const Vec3 w = NormalizedOr(axis, Vec3{});
  const double len = Dot(axis, w);
  const Vec3 m = ray.origin - c.a;
  const double y0 = Dot(m, w);
  const double uw = Dot(u, w);
  const Vec3 m_perp = m - w * y0;
  const Vec3 u_perp = u - w * uw;
  // |m_perp + t u_perp|^2 = r^2: A t^2 + 2 B t + C = 0.
  const double cc = LengthSquared(m_perp) - r * r;
  bool beyond_a = y0 < 0.5 * len;  // which end, when starting inside the cylinder.
  if (cc > 0.0) {
    const double bb = Dot(m_perp, u_perp);
    // Moving away from the axis, or parallel to it (bb = 0): never enters.
    if (bb >= 0.0) return {};
    // B^2 - A C rewritten by Lagrange's identity as A r^2 - |u_perp x m_perp|^2:
    // no cancellation between two large nearly equal products.
    const double disc = LengthSquared(u_perp) * r * r - LengthSquared(Cross(u_perp, m_perp));
    if (disc < 0.0) return {};
    const double t = cc / (-bb + std::sqrt(disc));  // near root, as C / q.
    const double y = y0 + t * uw;
    if (y >= 0.0 && y <= len) {
      return HitAt(ray, u, t, m_perp + u_perp * t, NormalizedOr(-u_perp, -u));
    }
    beyond_a = y < 0.0;
  }
  const Vec3& cap = beyond_a ? c.a : c.b;
  const Vec3 mc = ray.origin - cap;
  const double t = RayBallEntry(mc, u, r);
  if (t < 0.0) return {};
  return HitAt(ray, u, t, mc + u * t, -u);
}

}  // namespace collide::internal
