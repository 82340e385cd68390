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
//
// The origin is classified in the same cylinder frame and with the same
// rounded values the rest of the cast uses (body: y0 in [0, len] and
// |m_perp|^2 <= r^2; beyond an end: inside that end's ball). A separate
// closest-point test disagreed with the frame by round-off: an origin
// 3e-17 outside the side by the closest point but inside the cylinder by
// the frame went on to the end ball, which a ray heading into the side
// misses.
#include <cmath>

#include "query/kernels_round.h"
#include "query/raycast/ray_ball.h"

namespace collide::internal {

RayHit RayCastCapsule(const Ray& ray, const Capsule& c) {
  const Vec3 u = UnitDirection(ray);
  const double r = c.radius;
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
  const bool in_body = y0 >= 0.0 && y0 <= len;
  if (in_body && cc <= 0.0) return InsideHit(ray, u);
  bool beyond_a = y0 < 0.0;  // which end, when starting inside the cylinder.
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
      // Radius 0 (a segment): the ray crosses the axis, where the outward
      // offset vanishes; the limit of the normal as r -> 0 is -u_perp.
      const Vec3 outward = r > 0.0 ? m_perp + u_perp * t : -u_perp;
      return HitAt(ray, u, t, outward, NormalizedOr(-u_perp, -u));
    }
    beyond_a = y < 0.0;
  }
  return RayCastBall(ray, u, beyond_a ? c.a : c.b, r);
}

}  // namespace collide::internal
