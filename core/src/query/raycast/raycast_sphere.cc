// Ray cast against a sphere.
#include "query/kernels_round.h"
#include "query/raycast/ray_ball.h"

namespace collide::internal {

RayHit RayCastSphere(const Ray& ray, const Sphere& s) {
  return RayCastBall(ray, UnitDirection(ray), s.center, s.radius);
}

}  // namespace collide::internal
