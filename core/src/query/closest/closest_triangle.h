// Closest point of a triangle to a point (a closest-point building block, see
// closest.h for the segment and line ones).
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_

#include <optional>

#include "collide/math.h"

namespace collide::internal {

// The point of triangle (a, b, c) closest to p, as an offset from p, with
// the triangle's size (|ab|^2 + |ac|^2: its diameter is at most
// sqrt(2 size2)), by Voronoi regions (Ericson, Real-Time Collision
// Detection 5.1.5); nullopt when the triangle is degenerate by the GJK
// sub-algorithm's collinearity test (sin of the angle at a < ~1e-14).
struct TriangleClosestPoint {
  Vec3 offset;
  double size2;
};
std::optional<TriangleClosestPoint> ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b,
                                                           const Vec3& c);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
