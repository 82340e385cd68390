// Capsule vs triangle from the closest points of the
// segment and the triangle (query/round/capsule_triangle.h). Degenerate
// triangles, and a core that touches or crosses the triangle (its depth
// needs the whole penetration-axis search, which has no closed form here;
// accepted in issue 16), go to the GJK/EPA fallback.
#include "query/kernels_convex.h"
#include "query/registry.h"
#include "query/round/capsule_triangle.h"

namespace collide::internal {

PairResult ContactCapsuleTriangle(const Capsule& a, const Triangle& b) {
  PairResult r = QueryCapsuleCoreTriangle(QueryLevel::kContact, a.a, a.b, a.radius, b);
  if (r.status == QueryStatus::kUnsupported) r = QueryConvexFallback(QueryLevel::kContact, a, b);
  return r;
}

}  // namespace collide::internal
