// A point or a sphere (a ball of radius r >= 0) against a triangle, from the
// triangle's closest point to the center: the fast path of the point and
// sphere vs triangle kernels, answering exactly as the GJK fallback does.
#ifndef COLLIDE_CORE_SRC_QUERY_ROUND_BALL_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_ROUND_BALL_TRIANGLE_H_

#include <optional>

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// The hit of the pair (A = ball at `center` of `radius`, B = `t`): the
// kIntersect answer of QueryBallTriangle bit for bit, decided by separating
// axes with squared quantities when the pair is not within rounding of
// touching, by the closest point otherwise; nullopt for a degenerate
// triangle.
std::optional<bool> IntersectBallTriangle(const Vec3& center, double radius, const Triangle& t);

// The pair at `level`, following result.h, from the triangle's closest point
// to the center. A degenerate triangle (collinear vertices) gives status
// kUnsupported: the caller sends the pair to the fallback. A center on the
// triangle (within GJK's touch tolerance) touches its core: the normal is
// then the triangle's normal with the fallback's sign convention
// (PreferPositiveSign).
PairResult QueryBallTriangle(QueryLevel level, const Vec3& center, double radius, const Triangle& t);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_ROUND_BALL_TRIANGLE_H_
