// Generic convex fallback: GJK + EPA over support functions (to be written).
#include "query/registry.h"

namespace collide::internal {

PairResult QueryConvexFallback(QueryLevel, const Shape&, const Shape&) {
  return PairResult{.status = QueryStatus::kUnsupported};
}

RayHit RayCastConvexFallback(const Ray&, const Shape&) { return RayHit{.status = QueryStatus::kUnsupported}; }

}  // namespace collide::internal
