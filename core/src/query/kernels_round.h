// The specialized kernels of the round family (point, segment, sphere,
// capsule): every pair among the four at every level, and ray casts. One
// kernel per file, <query>/<query>_<a>_<b>.cc; registered in
// register_round.cc. Each pair is written once, A before B in ShapeKind
// order; the registry derives (B, A) by Flipped().
//
// All pair kernels follow result.h. Flat shapes (point, segment) have no
// interior, so two of them overlap only by touching: distance exactly 0.
// When the cores touch, the contact normal follows TouchingCoresNormal
// (round/round_pair.h): +x first, then +y, then +z.
#ifndef COLLIDE_CORE_SRC_QUERY_KERNELS_ROUND_H_
#define COLLIDE_CORE_SRC_QUERY_KERNELS_ROUND_H_

#include "collide/result.h"
#include "collide/shapes.h"

namespace collide::internal {

// Intersect level.
bool IntersectPointPoint(const Point& a, const Point& b);
bool IntersectPointSegment(const Point& a, const Segment& b);
bool IntersectPointSphere(const Point& a, const Sphere& b);
bool IntersectPointCapsule(const Point& a, const Capsule& b);
bool IntersectSegmentSegment(const Segment& a, const Segment& b);
bool IntersectSegmentSphere(const Segment& a, const Sphere& b);
bool IntersectSegmentCapsule(const Segment& a, const Capsule& b);
bool IntersectSphereSphere(const Sphere& a, const Sphere& b);
bool IntersectSphereCapsule(const Sphere& a, const Capsule& b);
bool IntersectCapsuleCapsule(const Capsule& a, const Capsule& b);

// Distance level.
PairResult DistancePointPoint(const Point& a, const Point& b);
PairResult DistancePointSegment(const Point& a, const Segment& b);
PairResult DistancePointSphere(const Point& a, const Sphere& b);
PairResult DistancePointCapsule(const Point& a, const Capsule& b);
PairResult DistanceSegmentSegment(const Segment& a, const Segment& b);
PairResult DistanceSegmentSphere(const Segment& a, const Sphere& b);
PairResult DistanceSegmentCapsule(const Segment& a, const Capsule& b);
PairResult DistanceSphereSphere(const Sphere& a, const Sphere& b);
PairResult DistanceSphereCapsule(const Sphere& a, const Capsule& b);
PairResult DistanceCapsuleCapsule(const Capsule& a, const Capsule& b);

// Contact level.
PairResult ContactPointPoint(const Point& a, const Point& b);
PairResult ContactPointSegment(const Point& a, const Segment& b);
PairResult ContactPointSphere(const Point& a, const Sphere& b);
PairResult ContactPointCapsule(const Point& a, const Capsule& b);
PairResult ContactSegmentSegment(const Segment& a, const Segment& b);
PairResult ContactSegmentSphere(const Segment& a, const Sphere& b);
PairResult ContactSegmentCapsule(const Segment& a, const Capsule& b);
PairResult ContactSphereSphere(const Sphere& a, const Sphere& b);
PairResult ContactSphereCapsule(const Sphere& a, const Capsule& b);
PairResult ContactCapsuleCapsule(const Capsule& a, const Capsule& b);
// Ray casts (result.h). The point and the segment are hit only when the ray
// meets them exactly.
RayHit RayCastPoint(const Ray& ray, const Point& p);
RayHit RayCastSegment(const Ray& ray, const Segment& s);
RayHit RayCastSphere(const Ray& ray, const Sphere& s);
RayHit RayCastCapsule(const Ray& ray, const Capsule& c);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_KERNELS_ROUND_H_
