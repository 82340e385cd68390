// Sphere vs triangle from the triangle's closest point (query/round/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/ball_triangle.h"

namespace collide::internal {

PairResult DistanceSphereTriangle(const Sphere& a, const Triangle& b) {
  // Returned in place (NRVO): no copy on the common path.
  PairResult r = QueryBallTriangle(QueryLevel::kDistance, a.center, a.radius, b);
  if (r.status == QueryStatus::kUnsupported)
    r = QueryConvexFallback(QueryLevel::kDistance, a, b);  // degenerate
  return r;
}

}  // namespace collide::internal
