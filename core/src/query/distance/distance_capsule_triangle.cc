// Capsule vs triangle from the closest points of the
// segment and the triangle (query/convex/capsule_triangle.h); degenerate
// triangles go to the GJK fallback.
#include "query/convex/capsule_triangle.h"
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

PairResult DistanceCapsuleTriangle(const Capsule& a, const Triangle& b) {
  PairResult r = QueryCapsuleCoreTriangle(QueryLevel::kDistance, a.a, a.b, a.radius, b);
  if (r.status == QueryStatus::kUnsupported) r = QueryConvexFallback(QueryLevel::kDistance, a, b);
  return r;
}

}  // namespace collide::internal
