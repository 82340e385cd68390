// Ball against a triangle: the ray from the center against the triangle
// grown by the radius. That rounded triangle is the union of the prism
// between the triangle's copies moved by +-r along its normal and of the
// three capsules of radius r on its edges. The prism's side faces lie inside
// the capsules, so a ray first enters the union through one of the two
// copies or one of the capsules (sweep_ball.h). A degenerate (collinear)
// triangle has no prism: its edges' capsules are the whole grown shape.
#include "query/kernels_convex.h"
#include "query/kernels_round.h"
#include "query/sweep/sweep_ball.h"
#include "query/sweep/sweep_kernels.h"

namespace collide::internal {

RayHit RayCastRoundedTriangle(const Ray& ray, const Triangle& t, double r) {
  if (r == 0.0) return RayCastTriangle(ray, t);
  RayHit best;
  const Vec3 n = Cross(t.b - t.a, t.c - t.a);
  const double n_length = Length(n);
  if (n_length > 0.0) {
    const Vec3 off = n * (r / n_length);
    KeepNearest(RayCastTriangle(ray, Triangle{t.a + off, t.b + off, t.c + off}), best);
    KeepNearest(RayCastTriangle(ray, Triangle{t.a - off, t.b - off, t.c - off}), best);
  }
  KeepNearest(RayCastCapsule(ray, Capsule{t.a, t.b, r}), best);
  KeepNearest(RayCastCapsule(ray, Capsule{t.b, t.c, r}), best);
  KeepNearest(RayCastCapsule(ray, Capsule{t.c, t.a, r}), best);
  return best;
}

SweepResult SweepPointTriangle(const Point& a, const Vec3& v, const Triangle& b) {
  return SweepBall(a.position, 0.0, v, [&](const Ray& ray) { return RayCastTriangle(ray, b); });
}
SweepResult SweepSphereTriangle(const Sphere& a, const Vec3& v, const Triangle& b) {
  return SweepBall(a.center, a.radius, v,
                   [&](const Ray& ray) { return RayCastRoundedTriangle(ray, b, a.radius); });
}

}  // namespace collide::internal
