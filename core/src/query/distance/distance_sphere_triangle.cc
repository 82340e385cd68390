// Sphere vs triangle from the triangle's closest point (query/convex/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/convex/ball_triangle.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

PairResult DistanceSphereTriangle(const Sphere& a, const Triangle& b) {
  PairResult r;  // returned in place (NRVO): no copy on the common path.
  if (!QueryBallTriangle(QueryLevel::kDistance, a.center, a.radius, b, r))
    r = QueryConvexFallback(QueryLevel::kDistance, a, b);
  return r;
}

}  // namespace collide::internal
