// Closest point of a triangle to a point (a closest-point building block, see
// closest.h for the segment and line ones).
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_

#include "collide/math.h"

namespace collide::internal {

// The point of triangle (a, b, c) closest to p, by Voronoi regions
// (Ericson, Real-Time Collision Detection 5.1.5). The triangle must not be
// degenerate: the face-region division needs a non-zero area.
Vec3 ClosestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_TRIANGLE_H_
