// Ray-box cast by the slab method in the box frame (slab.h). The rotation
// preserves lengths, so parameters stay world distances.
#include <cmath>

#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"
#include "query/raycast/slab.h"

namespace collide::internal {

RayHit RayCastObb(const Ray& ray, const Obb& box) {
  const Vec3 u = ray.direction / Length(ray.direction);
  const Vec3 u_local = TransposeMul(box.rotation, u);
  const SlabClip c = ClipLineToBox(ToBoxFrame(box, ray.origin), u_local, -box.half_extents, box.half_extents,
                                   0.0, ray.max_distance);
  if (!c.hit) return {};
  const Vec3 normal =
      c.enter_axis < 0 ? -u : box.rotation.col[c.enter_axis] * (u_local[c.enter_axis] > 0.0 ? -1.0 : 1.0);
  return {QueryStatus::kOk, true, c.t_enter, ray.origin + u * c.t_enter, normal};
}

}  // namespace collide::internal
