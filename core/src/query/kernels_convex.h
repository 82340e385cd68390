// Specialized kernels of the triangle, convex hull and halfspace family
// (registered in register_convex.cc). Results follow collide/result.h.
#ifndef COLLIDE_CORE_SRC_QUERY_KERNELS_CONVEX_H_
#define COLLIDE_CORE_SRC_QUERY_KERNELS_CONVEX_H_

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// Every convex kind (A) against a halfspace (B): exact, from A's support
// point along -normal; the normal from A to B is -halfspace.normal.
bool IntersectPointHalfspace(const Point& a, const Halfspace& b);
bool IntersectSegmentHalfspace(const Segment& a, const Halfspace& b);
bool IntersectSphereHalfspace(const Sphere& a, const Halfspace& b);
bool IntersectCapsuleHalfspace(const Capsule& a, const Halfspace& b);
bool IntersectAabbHalfspace(const Aabb& a, const Halfspace& b);
bool IntersectObbHalfspace(const Obb& a, const Halfspace& b);
bool IntersectTriangleHalfspace(const Triangle& a, const Halfspace& b);
bool IntersectConvexHullHalfspace(const ConvexHull& a, const Halfspace& b);
PairResult DistancePointHalfspace(const Point& a, const Halfspace& b);
PairResult DistanceSegmentHalfspace(const Segment& a, const Halfspace& b);
PairResult DistanceSphereHalfspace(const Sphere& a, const Halfspace& b);
PairResult DistanceCapsuleHalfspace(const Capsule& a, const Halfspace& b);
PairResult DistanceAabbHalfspace(const Aabb& a, const Halfspace& b);
PairResult DistanceObbHalfspace(const Obb& a, const Halfspace& b);
PairResult DistanceTriangleHalfspace(const Triangle& a, const Halfspace& b);
PairResult DistanceConvexHullHalfspace(const ConvexHull& a, const Halfspace& b);
PairResult ContactPointHalfspace(const Point& a, const Halfspace& b);
PairResult ContactSegmentHalfspace(const Segment& a, const Halfspace& b);
PairResult ContactSphereHalfspace(const Sphere& a, const Halfspace& b);
PairResult ContactCapsuleHalfspace(const Capsule& a, const Halfspace& b);
PairResult ContactAabbHalfspace(const Aabb& a, const Halfspace& b);
PairResult ContactObbHalfspace(const Obb& a, const Halfspace& b);
PairResult ContactTriangleHalfspace(const Triangle& a, const Halfspace& b);
PairResult ContactConvexHullHalfspace(const ConvexHull& a, const Halfspace& b);

// Point and sphere vs triangle: closest point on the triangle (the GJK
// fallback for degenerate triangles).
bool IntersectPointTriangle(const Point& a, const Triangle& b);
bool IntersectSphereTriangle(const Sphere& a, const Triangle& b);
PairResult DistancePointTriangle(const Point& a, const Triangle& b);
PairResult DistanceSphereTriangle(const Sphere& a, const Triangle& b);
PairResult ContactPointTriangle(const Point& a, const Triangle& b);
PairResult ContactSphereTriangle(const Sphere& a, const Triangle& b);

// Segment and capsule vs triangle: closest points of the segment and the
// triangle (query/round/capsule_triangle.h; the GJK fallback for degenerate
// triangles and, at the contact level, for a core touching the triangle).
bool IntersectSegmentTriangle(const Segment& a, const Triangle& b);
bool IntersectCapsuleTriangle(const Capsule& a, const Triangle& b);
PairResult DistanceSegmentTriangle(const Segment& a, const Triangle& b);
PairResult DistanceCapsuleTriangle(const Capsule& a, const Triangle& b);
PairResult ContactSegmentTriangle(const Segment& a, const Triangle& b);
PairResult ContactCapsuleTriangle(const Capsule& a, const Triangle& b);

// Ray casts.
RayHit RayCastTriangle(const Ray& ray, const Triangle& triangle);
RayHit RayCastHalfspace(const Ray& ray, const Halfspace& halfspace);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_KERNELS_CONVEX_H_
