// A segment (a capsule of radius 0) vs triangle from the closest points of the
// segment and the triangle (query/round/capsule_triangle.h); degenerate
// triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/capsule_triangle.h"

namespace collide::internal {

bool IntersectSegmentTriangle(const Segment& a, const Triangle& b) {
  if (const std::optional<bool> hit = IntersectCapsuleCoreTriangle(a.a, a.b, 0.0, b)) return *hit;
  return QueryConvexFallback(QueryLevel::kIntersect, a, b).hit;
}

}  // namespace collide::internal
