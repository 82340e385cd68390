// Point in a closed axis-aligned box: per-axis bounds.
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectPointAabb(const Point& a, const Aabb& b) {
  const Vec3& p = a.position;
  return p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y && p.z >= b.min.z &&
         p.z <= b.max.z;
}

}  // namespace collide::internal
