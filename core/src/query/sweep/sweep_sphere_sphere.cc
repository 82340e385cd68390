// Ball against ball (points are balls of radius 0): the ray from A's center
// against the ball of radius r_a + r_b about B's center (ray_ball.h).
#include "query/raycast/ray_ball.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

namespace {
SweepResult SweepBallBall(const Vec3& ca, double ra, const Vec3& v, const Vec3& cb, double rb) {
  return SweepBall(ca, ra, v,
                   [&](const Ray& ray) { return RayCastBall(ray, UnitDirection(ray), cb, ra + rb); });
}
}  // namespace

SweepResult SweepPointPoint(const Point& a, const Vec3& v, const Point& b) {
  return SweepBallBall(a.position, 0.0, v, b.position, 0.0);
}
SweepResult SweepPointSphere(const Point& a, const Vec3& v, const Sphere& b) {
  return SweepBallBall(a.position, 0.0, v, b.center, b.radius);
}
SweepResult SweepSphereSphere(const Sphere& a, const Vec3& v, const Sphere& b) {
  return SweepBallBall(a.center, a.radius, v, b.center, b.radius);
}

}  // namespace collide::internal
