// Point in an oriented box: bounds in the box frame.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

bool IntersectPointObb(const Point& a, const Obb& b) {
  const Vec3 p = ToBoxFrame(b, a.position);
  const Vec3& h = b.half_extents;
  return std::fabs(p.x) <= h.x && std::fabs(p.y) <= h.y && std::fabs(p.z) <= h.z;
}

}  // namespace collide::internal
