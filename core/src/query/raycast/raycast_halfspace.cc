#include "query/kernels_convex.h"

namespace collide::internal {

RayHit RayCastHalfspace(const Ray& ray, const Halfspace& h) {
  // Normalize as in QueryConvexHalfspace so distances are in world units.
  const double len = Length(h.normal);
  const Vec3 n = h.normal / len;
  const double s = Dot(n, ray.origin) - h.offset / len;  // > 0 outside.
  const Vec3 d = ray.direction / Length(ray.direction);
  RayHit hit;
  if (s <= 0.0) {
    hit.hit = true;
    hit.point = ray.origin;
    hit.normal = -d;
    return hit;
  }
  const double nd = Dot(n, d);
  if (!(nd < 0.0)) return hit;
  const double t = -s / nd;
  if (!(t <= ray.max_distance)) return hit;
  hit.hit = true;
  hit.distance = t;
  hit.point = ray.origin + d * t;
  hit.normal = n;
  return hit;
}

}  // namespace collide::internal
