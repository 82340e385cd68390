// Any convex shape against a halfspace, exactly and in O(support): the
// deepest point of the shape is its support point along -normal, and its
// signed distance to the plane is the pair's signed distance.
#ifndef COLLIDE_CORE_SRC_QUERY_HALFSPACE_HALFSPACE_H_
#define COLLIDE_CORE_SRC_QUERY_HALFSPACE_HALFSPACE_H_

#include "collide/result.h"
#include "collide/shapes.h"
#include "query/convex/support.h"

namespace collide::internal {

// The pair (A = the shape whose core is `a`, unshifted; B = `b`) at `level`,
// following result.h. With n the unit normal of B and p the deepest point of
// A (support of A along -n), s = dot(n, p) - offset is the signed distance;
// the normal from A to B is -n and point_b = p - s * n, the projection of p
// on B's plane.
PairResult QueryConvexHalfspace(QueryLevel level, const ConvexCore& a, const Halfspace& b);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_HALFSPACE_HALFSPACE_H_
