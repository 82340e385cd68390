// Point vs triangle from the triangle's closest point (query/round/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/ball_triangle.h"

namespace collide::internal {

PairResult ContactPointTriangle(const Point& a, const Triangle& b) {
  // Returned in place (NRVO): no copy on the common path.
  PairResult r = QueryBallTriangle(QueryLevel::kContact, a.position, 0.0, b);
  if (r.status == QueryStatus::kUnsupported)
    r = QueryConvexFallback(QueryLevel::kContact, a, b);  // degenerate
  return r;
}

}  // namespace collide::internal
