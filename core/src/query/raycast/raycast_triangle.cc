#include "query/kernels_convex.h"
#include "query/raycast/exact_sign.h"
#include "query/raycast/watertight.h"
#include "query/registry.h"

namespace collide::internal {

RayHit RayCastTriangle(const Ray& ray, const Triangle& tri) {
  // A zero-area triangle is a segment or a point: the generic cast answers it.
  if (ExactlyCollinear(tri.a, tri.b, tri.c)) return RayCastConvexFallback(ray, tri);
  // The exact, watertight test (watertight.h), its coplanar rule included.
  const WatertightRay r = SetUpWatertightRay(ray.origin, ray.direction);
  const RayTriangleT t = IntersectWatertight(r, tri.a, tri.b, tri.c, ray.max_distance / r.length);
  if (!t.hit) return {};
  return RayHitOnTriangle(r, tri.a, tri.b, tri.c, t, ray.max_distance);
}

}  // namespace collide::internal
