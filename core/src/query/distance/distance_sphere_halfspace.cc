// Sphere vs halfspace through the support of the sphere along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult DistanceSphereHalfspace(const Sphere& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kDistance, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
