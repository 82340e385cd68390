// Registers the specialized kernels of this family (see registry.h).
#include "query/kernels_convex.h"
#include "query/registry.h"

namespace collide::internal {

void RegisterConvexKernels(Registry& r) {
  r.Register<IntersectPointHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectSegmentHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectSphereHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectCapsuleHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectAabbHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectObbHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectTriangleHalfspace>(QueryLevel::kIntersect);
  r.Register<IntersectConvexHullHalfspace>(QueryLevel::kIntersect);
  r.Register<DistancePointHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceSegmentHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceSphereHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceCapsuleHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceAabbHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceObbHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceTriangleHalfspace>(QueryLevel::kDistance);
  r.Register<DistanceConvexHullHalfspace>(QueryLevel::kDistance);
  r.Register<ContactPointHalfspace>(QueryLevel::kContact);
  r.Register<ContactSegmentHalfspace>(QueryLevel::kContact);
  r.Register<ContactSphereHalfspace>(QueryLevel::kContact);
  r.Register<ContactCapsuleHalfspace>(QueryLevel::kContact);
  r.Register<ContactAabbHalfspace>(QueryLevel::kContact);
  r.Register<ContactObbHalfspace>(QueryLevel::kContact);
  r.Register<ContactTriangleHalfspace>(QueryLevel::kContact);
  r.Register<ContactConvexHullHalfspace>(QueryLevel::kContact);
  r.Register<IntersectPointTriangle>(QueryLevel::kIntersect);
  r.Register<IntersectSphereTriangle>(QueryLevel::kIntersect);
  r.Register<DistancePointTriangle>(QueryLevel::kDistance);
  r.Register<DistanceSphereTriangle>(QueryLevel::kDistance);
  r.Register<ContactPointTriangle>(QueryLevel::kContact);
  r.Register<ContactSphereTriangle>(QueryLevel::kContact);
  r.Register<IntersectSegmentTriangle>(QueryLevel::kIntersect);
  r.Register<IntersectCapsuleTriangle>(QueryLevel::kIntersect);
  r.Register<DistanceSegmentTriangle>(QueryLevel::kDistance);
  r.Register<DistanceCapsuleTriangle>(QueryLevel::kDistance);
  r.Register<ContactSegmentTriangle>(QueryLevel::kContact);
  r.Register<ContactCapsuleTriangle>(QueryLevel::kContact);
  r.RegisterRay<RayCastTriangle>();
  r.RegisterRay<RayCastHalfspace>();
}

}  // namespace collide::internal
