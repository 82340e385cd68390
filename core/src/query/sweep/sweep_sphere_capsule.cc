// Ball against segment and capsule: the ray from the center against the
// capsule grown by the ball's radius (a segment is a capsule of radius 0).
#include "query/kernels_round.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

namespace {
SweepResult SweepBallCapsule(const Vec3& c, double r, const Vec3& v, const Capsule& b) {
  return SweepBall(c, r, v, [&](const Ray& ray) {
    return RayCastCapsule(ray, Capsule{b.a, b.b, b.radius + r});
  });
}
}  // namespace

SweepResult SweepPointSegment(const Point& a, const Vec3& v, const Segment& b) {
  return SweepBallCapsule(a.position, 0.0, v, Capsule{b.a, b.b, 0.0});
}
SweepResult SweepSphereSegment(const Sphere& a, const Vec3& v, const Segment& b) {
  return SweepBallCapsule(a.center, a.radius, v, Capsule{b.a, b.b, 0.0});
}
SweepResult SweepPointCapsule(const Point& a, const Vec3& v, const Capsule& b) {
  return SweepBallCapsule(a.position, 0.0, v, b);
}
SweepResult SweepSphereCapsule(const Sphere& a, const Vec3& v, const Capsule& b) {
  return SweepBallCapsule(a.center, a.radius, v, b);
}

}  // namespace collide::internal
