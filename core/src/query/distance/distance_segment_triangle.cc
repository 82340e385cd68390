// A segment (a capsule of radius 0) vs triangle from the closest points of the
// segment and the triangle (query/round/capsule_triangle.h); degenerate
// triangles go to the GJK fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/capsule_triangle.h"

namespace collide::internal {

PairResult DistanceSegmentTriangle(const Segment& a, const Triangle& b) {
  PairResult r = QueryCapsuleCoreTriangle(QueryLevel::kDistance, a.a, a.b, 0.0, b);
  if (r.status == QueryStatus::kUnsupported) r = QueryConvexFallback(QueryLevel::kDistance, a, b);
  return r;
}

}  // namespace collide::internal
