// Ray cast against a point: a ball of radius 0, hit only when the point lies
// on the ray exactly (as a point-point query needs exact coincidence).
// Normal: -direction, the only direction facing the ray origin.
#include "query/kernels_round.h"
#include "query/raycast/ray_ball.h"

namespace collide::internal {

RayHit RayCastPoint(const Ray& ray, const Point& p) {
  return RayCastBall(ray, UnitDirection(ray), p.position, 0.0);
}

}  // namespace collide::internal
