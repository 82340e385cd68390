// A segment or a capsule (a segment core swept by a ball of radius r >= 0)
// against a triangle, from the closest points of the core and the triangle
// (query/closest/closest_segment_triangle.h): the closed form behind the
// segment and capsule vs triangle kernels at every level.
#ifndef COLLIDE_CORE_SRC_QUERY_ROUND_CAPSULE_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_ROUND_CAPSULE_TRIANGLE_H_

#include <optional>

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// The hit of the pair (A = core [p, q] of `radius`, B = `t`), the hit of
// QueryCapsuleCoreTriangle at every level; far pairs are rejected by the
// bounding boxes first. nullopt for a degenerate triangle.
std::optional<bool> IntersectCapsuleCoreTriangle(const Vec3& p, const Vec3& q, double radius,
                                                 const Triangle& t);

// The pair at `level`, following result.h. Apart or overlapping with the
// core off the triangle, the closest points give everything: signed
// distance |core gap| - radius, normal along the gap (corrected into the
// normal cone as round_pair.h does), A's witness the core point moved by the
// radius along the normal, B's the triangle point. Status kUnsupported,
// for the caller to send the pair to the GJK/EPA fallback: a degenerate
// triangle, and at kContact a core that touches or crosses the triangle
// (within rounding), where the depth needs the whole penetration axis
// search and has no closed form here.
PairResult QueryCapsuleCoreTriangle(QueryLevel level, const Vec3& p, const Vec3& q, double radius,
                                    const Triangle& t);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_ROUND_CAPSULE_TRIANGLE_H_
