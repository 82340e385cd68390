// Ball against a halfspace: the ray from the center against the halfspace
// moved out by the radius.
#include "query/kernels_convex.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

SweepResult SweepPointHalfspace(const Point& a, const Vec3& v, const Halfspace& b) {
  return SweepBall(a.position, 0.0, v, [&](const Ray& ray) { return RayCastHalfspace(ray, b); });
}
SweepResult SweepSphereHalfspace(const Sphere& a, const Vec3& v, const Halfspace& b) {
  return SweepBall(a.center, a.radius, v, [&](const Ray& ray) {
    return RayCastHalfspace(ray, Halfspace{b.normal, b.offset + a.radius});
  });
}

}  // namespace collide::internal
