// An Aabb is an Obb with the identity rotation.
#include "query/box/closest_point_box.h"
#include "query/kernels_box.h"

namespace collide::internal {

PairResult DistanceAabbObb(const Aabb& a, const Obb& b) { return DistanceObbObb(ObbFromAabb(a), b); }

}  // namespace collide::internal
