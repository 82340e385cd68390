// ConvexHull vs halfspace through the support of the convex_hull along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

bool IntersectConvexHullHalfspace(const ConvexHull& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kIntersect, ConvexCore(a, {}), b).hit;
}

}  // namespace collide::internal
