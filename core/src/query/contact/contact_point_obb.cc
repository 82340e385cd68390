// Point-box signed contact in the box frame; ties broken on world normals.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactPointObb(const Point& a, const Obb& b) {
  return ToWorld(
      b, ContactBallBoxFrame(ToBoxFrame(b, a.position), 0.0, -b.half_extents, b.half_extents, b.rotation));
}

}  // namespace collide::internal
