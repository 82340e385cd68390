// Sphere-box signed contact: a centre inside is pushed out through the
// nearest face.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult ContactSphereAabb(const Sphere& a, const Aabb& b) {
  return ContactBallBoxFrame(a.center, a.radius, b.min, b.max, kIdentity);
}

}  // namespace collide::internal
