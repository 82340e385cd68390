// Sweeps of a ball (a point or a sphere): the ball at center c of radius r
// moved by v touches a target exactly when the ray from c along v enters the
// target grown by r (the Minkowski sum with the ball), so each such sweep is
// one ray cast against the grown target, on the existing ray kernels.
#ifndef COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_BALL_H_
#define COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_BALL_H_

#include <algorithm>

#include "collide/sweep.h"

namespace collide::internal {

// The sweep of the ball (c, r) by v != 0 from the ray cast `cast(ray)` of
// the ray from c along v, max_distance |v|, against the target grown by r.
// The ray's outward normal points from the target to the ball: the sweep's
// normal (A to B) is its opposite; the contact point is on the ball's
// surface, r along that normal from the center at time t.
template <typename Cast>
SweepResult SweepBall(const Vec3& c, double r, const Vec3& v, Cast&& cast) {
  const double length = Length(v);
  const RayHit h = cast(Ray{c, v, length});
  if (!h.hit) return {};
  SweepResult s;
  s.status = h.status;
  s.hit = true;
  s.t = std::min(1.0, h.distance / length);
  s.normal = -h.normal;
  s.point = h.point + s.normal * r;
  return s;
}

// Ray casts against a box and a triangle grown by r >= 0 (a rounded box, a
// rounded triangle): see sweep_sphere_obb.cc and sweep_sphere_triangle.cc.
RayHit RayCastRoundedBox(const Ray& ray, const Obb& box, double r);
RayHit RayCastRoundedTriangle(const Ray& ray, const Triangle& t, double r);

// Keeps the nearer of two ray hits: the first entry into a union of solids,
// from an origin outside all of them, is the nearest first entry into one.
inline void KeepNearest(const RayHit& h, RayHit& best) {
  if (h.hit && (!best.hit || h.distance < best.distance)) best = h;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_BALL_H_
