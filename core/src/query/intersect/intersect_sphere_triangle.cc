// Sphere vs triangle from the triangle's closest point (query/round/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/ball_triangle.h"

namespace collide::internal {

bool IntersectSphereTriangle(const Sphere& a, const Triangle& b) {
  if (const std::optional<bool> hit = IntersectBallTriangle(a.center, a.radius, b)) return *hit;
  return QueryConvexFallback(QueryLevel::kIntersect, a, b).hit;
}

}  // namespace collide::internal
