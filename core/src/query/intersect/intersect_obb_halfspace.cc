// Obb vs halfspace through the support of the obb along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

bool IntersectObbHalfspace(const Obb& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kIntersect, ConvexCore(a, {}), b).hit;
}

}  // namespace collide::internal
