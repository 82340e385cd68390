// ConvexHull vs halfspace through the support of the convex_hull along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult DistanceConvexHullHalfspace(const ConvexHull& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kDistance, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
