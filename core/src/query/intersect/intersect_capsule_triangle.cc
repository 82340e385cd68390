// Capsule vs triangle from the closest points of the
// segment and the triangle (query/round/capsule_triangle.h); degenerate
// triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/capsule_triangle.h"

namespace collide::internal {

bool IntersectCapsuleTriangle(const Capsule& a, const Triangle& b) {
  if (const std::optional<bool> hit = IntersectCapsuleCoreTriangle(a.a, a.b, a.radius, b)) return *hit;
  return QueryConvexFallback(QueryLevel::kIntersect, a, b).hit;
}

}  // namespace collide::internal
