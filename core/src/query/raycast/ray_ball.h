// Ray against a ball: the step shared by the sphere and capsule ray casts (a
// capsule's end caps are balls).
#ifndef COLLIDE_CORE_SRC_QUERY_RAYCAST_RAY_BALL_H_
#define COLLIDE_CORE_SRC_QUERY_RAYCAST_RAY_BALL_H_

#include <cmath>

#include "collide/result.h"
#include "collide/shapes.h"
#include "query/closest/closest.h"

namespace collide::internal {

// The hit of a ray that starts inside or on a solid shape (result.h).
inline RayHit InsideHit(const Ray& ray, const Vec3& unit_dir) {
  return {QueryStatus::kOk, true, 0.0, ray.origin, -unit_dir};
}

// The hit at distance t if within ray.max_distance, else a miss. `outward`
// is the (not necessarily unit) surface normal, `fallback` the unit normal to
// use where it vanishes (a zero radius).
inline RayHit HitAt(const Ray& ray, const Vec3& unit_dir, double t, const Vec3& outward,
                    const Vec3& fallback) {
  if (!(t <= ray.max_distance)) return {};
  return {QueryStatus::kOk, true, t, ray.origin + unit_dir * t, NormalizedOr(outward, fallback)};
}

// First t >= 0 at which origin + t * u (u unit) enters the ball of radius r
// whose center is at offset -m from the origin (m = origin - center), for an
// origin outside the ball; negative on a miss. Ray Tracing Gems ch. 7
// (Haines et al. 2019, "Precision Improvements for Ray/Sphere Intersection"):
// the discriminant as r^2 - |m - (m.u) u|^2 (the squared distance of the
// center from the line) instead of b^2 - c, and the near root as c / q,
// avoiding both cancellations of the textbook formula.
inline double RayBallEntry(const Vec3& m, const Vec3& u, double r) {
  const double b = Dot(m, u);
  if (b >= 0.0) return -1.0;  // moving away from a ball it is outside of.
  const Vec3 f = m - u * b;
  const double disc = r * r - Dot(f, f);
  if (disc < 0.0) return -1.0;
  const double c = Dot(m, m) - r * r;
  return c / (-b + std::sqrt(disc));
}

// The unit direction of a valid ray (non-zero direction).
inline Vec3 UnitDirection(const Ray& ray) { return NormalizedOr(ray.direction, Vec3{1, 0, 0}); }

// Ray (with unit direction u) against the solid ball (center, r >= 0).
inline RayHit RayCastBall(const Ray& ray, const Vec3& u, const Vec3& center, double r) {
  const Vec3 m = ray.origin - center;
  if (Dot(m, m) <= r * r) return InsideHit(ray, u);
  const double t = RayBallEntry(m, u, r);
  if (t < 0.0) return {};
  // Radius 0 (a point): the ray passes through the center, where the outward
  // offset m + u t is pure round-off; -u is the only normal facing the
  // origin (the limit as r -> 0 of a ray through the center).
  return HitAt(ray, u, t, r > 0.0 ? m + u * t : -u, -u);
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_RAYCAST_RAY_BALL_H_
