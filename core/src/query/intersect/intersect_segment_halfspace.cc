// Segment vs halfspace through the support of the segment along -normal
// (query/halfspace/halfspace.h).
#include "query/halfspace/halfspace.h"
#include "query/kernels_convex.h"

namespace collide::internal {

bool IntersectSegmentHalfspace(const Segment& a, const Halfspace& b) {
  return QueryConvexHalfspace(QueryLevel::kIntersect, ConvexCore(a, {}), b).hit;
}

}  // namespace collide::internal
