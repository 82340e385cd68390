// Capsule vs triangle from the closest points of the
// segment and the triangle (query/round/capsule_triangle.h); degenerate
// triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/capsule_triangle.h"

namespace collide::internal {

PairResult DistanceCapsuleTriangle(const Capsule& a, const Triangle& b) {
  PairResult r = QueryCapsuleCoreTriangle(QueryLevel::kDistance, a.a, a.b, a.radius, b);
  if (r.status == QueryStatus::kUnsupported) r = QueryConvexFallback(QueryLevel::kDistance, a, b);
  return r;
}

}  // namespace collide::internal
