// Obb vs halfspace through the support of the obb along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult DistanceObbHalfspace(const Obb& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kDistance, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
