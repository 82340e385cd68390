// Ray-box cast by the slab method (slab.h), with a unit direction so that
// parameters are world distances.
#include <cmath>

#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"
#include "query/raycast/slab.h"

namespace collide::internal {

RayHit RayCastAabb(const Ray& ray, const Aabb& box) {
  const Vec3 u = ray.direction / Length(ray.direction);
  const SlabClip c = ClipLineToBox(ray.origin, u, box.min, box.max, 0.0, ray.max_distance);
  if (!c.hit) return {};
  // enter_axis < 0: the origin is in the box (or on it, leaving).
  const Vec3 normal = c.enter_axis < 0 ? -u : Axis(c.enter_axis, u[c.enter_axis] > 0.0 ? -1.0 : 1.0);
  return {QueryStatus::kOk, true, c.t_enter, ray.origin + u * c.t_enter, normal};
}

}  // namespace collide::internal
