// Specialized kernels for boxes (Aabb, Obb) against points, segments,
// spheres, capsules, boxes and triangles, and ray casts against boxes. Every kernel is
// exact (up to round-off) and follows result.h: shape A is the first
// argument, the normal points from A towards B. Each is defined in
// core/src/query/<query>/<query>_<a>_<b>.cc and registered in register_box.cc.
#ifndef COLLIDE_CORE_SRC_QUERY_KERNELS_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_KERNELS_BOX_H_

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// Intersect level.
bool IntersectPointAabb(const Point& a, const Aabb& b);
bool IntersectPointObb(const Point& a, const Obb& b);
bool IntersectSegmentAabb(const Segment& a, const Aabb& b);
bool IntersectSegmentObb(const Segment& a, const Obb& b);
bool IntersectSphereAabb(const Sphere& a, const Aabb& b);
bool IntersectSphereObb(const Sphere& a, const Obb& b);
bool IntersectCapsuleAabb(const Capsule& a, const Aabb& b);
bool IntersectCapsuleObb(const Capsule& a, const Obb& b);
bool IntersectAabbAabb(const Aabb& a, const Aabb& b);
bool IntersectAabbObb(const Aabb& a, const Obb& b);
bool IntersectObbObb(const Obb& a, const Obb& b);
bool IntersectAabbTriangle(const Aabb& a, const Triangle& b);
bool IntersectObbTriangle(const Obb& a, const Triangle& b);

// Distance level.
PairResult DistancePointAabb(const Point& a, const Aabb& b);
PairResult DistancePointObb(const Point& a, const Obb& b);
PairResult DistanceSegmentAabb(const Segment& a, const Aabb& b);
PairResult DistanceSegmentObb(const Segment& a, const Obb& b);
PairResult DistanceSphereAabb(const Sphere& a, const Aabb& b);
PairResult DistanceSphereObb(const Sphere& a, const Obb& b);
PairResult DistanceCapsuleAabb(const Capsule& a, const Aabb& b);
PairResult DistanceCapsuleObb(const Capsule& a, const Obb& b);
PairResult DistanceAabbAabb(const Aabb& a, const Aabb& b);
PairResult DistanceAabbObb(const Aabb& a, const Obb& b);
PairResult DistanceObbObb(const Obb& a, const Obb& b);
PairResult DistanceAabbTriangle(const Aabb& a, const Triangle& b);
PairResult DistanceObbTriangle(const Obb& a, const Triangle& b);

// Contact level.
PairResult ContactPointAabb(const Point& a, const Aabb& b);
PairResult ContactPointObb(const Point& a, const Obb& b);
PairResult ContactSegmentAabb(const Segment& a, const Aabb& b);
PairResult ContactSegmentObb(const Segment& a, const Obb& b);
PairResult ContactSphereAabb(const Sphere& a, const Aabb& b);
PairResult ContactSphereObb(const Sphere& a, const Obb& b);
PairResult ContactCapsuleAabb(const Capsule& a, const Aabb& b);
PairResult ContactCapsuleObb(const Capsule& a, const Obb& b);
PairResult ContactAabbAabb(const Aabb& a, const Aabb& b);
PairResult ContactAabbObb(const Aabb& a, const Obb& b);
PairResult ContactObbObb(const Obb& a, const Obb& b);
PairResult ContactAabbTriangle(const Aabb& a, const Triangle& b);
PairResult ContactObbTriangle(const Obb& a, const Triangle& b);
// Ray casts (slab method).
RayHit RayCastAabb(const Ray& ray, const Aabb& box);
RayHit RayCastObb(const Ray& ray, const Obb& box);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_KERNELS_BOX_H_
