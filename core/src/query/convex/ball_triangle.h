// A point or a sphere (a ball of radius r >= 0) against a triangle, from the
// triangle's closest point to the center: the fast path of the point and
// sphere vs triangle kernels, answering exactly as the GJK fallback does.
#ifndef COLLIDE_CORE_SRC_QUERY_CONVEX_BALL_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_CONVEX_BALL_TRIANGLE_H_

#include <optional>

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// The pair (A = ball at `center` of `radius`, B = `t`) at `level`, following
// result.h; nullopt when the triangle is degenerate (collinear vertices),
// which the caller sends to the fallback. A center on the triangle (within
// GJK's touch tolerance) touches its core: the normal is then the triangle's
// normal with the fallback's sign convention (PreferPositiveSign).
// The hit of that pair alone (the kIntersect answer, bit for bit), with an
// early reject by the triangle's bounding box before the closest-point work;
// nullopt for a degenerate triangle.
std::optional<bool> IntersectBallTriangle(const Vec3& center, double radius, const Triangle& t);

std::optional<PairResult> QueryBallTriangle(QueryLevel level, const Vec3& center, double radius,
                                            const Triangle& t);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CONVEX_BALL_TRIANGLE_H_
