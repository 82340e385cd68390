// Obb vs halfspace through the support of the obb along -normal
// (query/convex/halfspace.h).
#include "query/convex/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

bool IntersectObbHalfspace(const Obb& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kIntersect, ConvexCore(a, {}), b).hit;
}

}  // namespace collide::internal
