// The closed-form sweep kernels (registered in register_sweeps.cc), each
// for its own (A, B) order; the table adds the mirror. Called only with a
// non-zero translation and shapes apart at t = 0.
#ifndef COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_KERNELS_H_
#define COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_KERNELS_H_

#include "collide/sweep.h"

namespace collide::internal {

SweepResult SweepPointPoint(const Point& a, const Vec3& v, const Point& b);
SweepResult SweepPointSphere(const Point& a, const Vec3& v, const Sphere& b);
SweepResult SweepSphereSphere(const Sphere& a, const Vec3& v, const Sphere& b);
SweepResult SweepPointSegment(const Point& a, const Vec3& v, const Segment& b);
SweepResult SweepSphereSegment(const Sphere& a, const Vec3& v, const Segment& b);
SweepResult SweepPointCapsule(const Point& a, const Vec3& v, const Capsule& b);
SweepResult SweepSphereCapsule(const Sphere& a, const Vec3& v, const Capsule& b);
SweepResult SweepPointAabb(const Point& a, const Vec3& v, const Aabb& b);
SweepResult SweepSphereAabb(const Sphere& a, const Vec3& v, const Aabb& b);
SweepResult SweepPointObb(const Point& a, const Vec3& v, const Obb& b);
SweepResult SweepSphereObb(const Sphere& a, const Vec3& v, const Obb& b);
SweepResult SweepPointTriangle(const Point& a, const Vec3& v, const Triangle& b);
SweepResult SweepSphereTriangle(const Sphere& a, const Vec3& v, const Triangle& b);
SweepResult SweepSegmentSegment(const Segment& a, const Vec3& v, const Segment& b);
SweepResult SweepSegmentCapsule(const Segment& a, const Vec3& v, const Capsule& b);
SweepResult SweepCapsuleCapsule(const Capsule& a, const Vec3& v, const Capsule& b);
SweepResult SweepPointHalfspace(const Point& a, const Vec3& v, const Halfspace& b);
SweepResult SweepSphereHalfspace(const Sphere& a, const Vec3& v, const Halfspace& b);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_SWEEP_SWEEP_KERNELS_H_
