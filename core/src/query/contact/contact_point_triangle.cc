// Point vs triangle from the triangle's closest point (query/convex/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/convex/ball_triangle.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

PairResult ContactPointTriangle(const Point& a, const Triangle& b) {
  PairResult r;  // returned in place (NRVO): no copy on the common path.
  if (!QueryBallTriangle(QueryLevel::kContact, a.position, 0.0, b, r))
    r = QueryConvexFallback(QueryLevel::kContact, a, b);
  return r;
}

}  // namespace collide::internal
