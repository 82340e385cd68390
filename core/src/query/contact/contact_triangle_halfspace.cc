// Triangle vs halfspace through the support of the triangle along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult ContactTriangleHalfspace(const Triangle& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kContact, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
