// Ball against an axis-aligned box: a point is the AABB ray cast itself; a
// sphere sweeps against the rounded box of sweep_sphere_obb.cc, with the
// AABB as a box of identity rotation.
#include "query/kernels_box.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

SweepResult SweepPointAabb(const Point& a, const Vec3& v, const Aabb& b) {
  return SweepBall(a.position, 0.0, v, [&](const Ray& ray) { return RayCastAabb(ray, b); });
}
SweepResult SweepSphereAabb(const Sphere& a, const Vec3& v, const Aabb& b) {
  const Obb box{(b.min + b.max) * 0.5, Mat3{}, (b.max - b.min) * 0.5};
  return SweepBall(a.center, a.radius, v,
                   [&](const Ray& ray) { return RayCastRoundedBox(ray, box, a.radius); });
}

}  // namespace collide::internal
