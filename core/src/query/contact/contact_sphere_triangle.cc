// Sphere vs triangle from the triangle's closest point (query/convex/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/convex/ball_triangle.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

PairResult ContactSphereTriangle(const Sphere& a, const Triangle& b) {
  if (const auto r = QueryBallTriangle(QueryLevel::kContact, a.center, a.radius, b)) return *r;
  return QueryConvexFallback(QueryLevel::kContact, a, b);
}

}  // namespace collide::internal
