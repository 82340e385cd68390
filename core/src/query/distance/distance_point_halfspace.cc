// Point vs halfspace through the support of the point along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult DistancePointHalfspace(const Point& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kDistance, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
