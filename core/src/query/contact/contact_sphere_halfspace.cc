// Sphere vs halfspace through the support of the sphere along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

PairResult ContactSphereHalfspace(const Sphere& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kContact, ConvexCore(a, {}), b);
}

}  // namespace collide::internal
