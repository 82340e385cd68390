// Point vs triangle from the triangle's closest point (query/round/ball_triangle.h);
// degenerate triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/ball_triangle.h"

namespace collide::internal {

bool IntersectPointTriangle(const Point& a, const Triangle& b) {
  if (const std::optional<bool> hit = IntersectBallTriangle(a.position, 0.0, b)) return *hit;
  return QueryConvexFallback(QueryLevel::kIntersect, a, b).hit;
}

}  // namespace collide::internal
