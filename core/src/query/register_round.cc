// Registers the specialized kernels of this family (see registry.h).
#include "query/kernels_round.h"
#include "query/registry.h"

namespace collide::internal {

void RegisterRoundKernels(Registry& r) {
  r.Register<&IntersectPointPoint>(QueryLevel::kIntersect);
  r.Register<&IntersectPointSegment>(QueryLevel::kIntersect);
  r.Register<&IntersectPointSphere>(QueryLevel::kIntersect);
  r.Register<&IntersectPointCapsule>(QueryLevel::kIntersect);
  r.Register<&IntersectSegmentSegment>(QueryLevel::kIntersect);
  r.Register<&IntersectSegmentSphere>(QueryLevel::kIntersect);
  r.Register<&IntersectSegmentCapsule>(QueryLevel::kIntersect);
  r.Register<&IntersectSphereSphere>(QueryLevel::kIntersect);
  r.Register<&IntersectSphereCapsule>(QueryLevel::kIntersect);
  r.Register<&IntersectCapsuleCapsule>(QueryLevel::kIntersect);
  r.Register<&DistancePointPoint>(QueryLevel::kDistance);
  r.Register<&DistancePointSegment>(QueryLevel::kDistance);
  r.Register<&DistancePointSphere>(QueryLevel::kDistance);
  r.Register<&DistancePointCapsule>(QueryLevel::kDistance);
  r.Register<&DistanceSegmentSegment>(QueryLevel::kDistance);
  r.Register<&DistanceSegmentSphere>(QueryLevel::kDistance);
  r.Register<&DistanceSegmentCapsule>(QueryLevel::kDistance);
  r.Register<&DistanceSphereSphere>(QueryLevel::kDistance);
  r.Register<&DistanceSphereCapsule>(QueryLevel::kDistance);
  r.Register<&DistanceCapsuleCapsule>(QueryLevel::kDistance);
  r.Register<&ContactPointPoint>(QueryLevel::kContact);
  r.Register<&ContactPointSegment>(QueryLevel::kContact);
  r.Register<&ContactPointSphere>(QueryLevel::kContact);
  r.Register<&ContactPointCapsule>(QueryLevel::kContact);
  r.Register<&ContactSegmentSegment>(QueryLevel::kContact);
  r.Register<&ContactSegmentSphere>(QueryLevel::kContact);
  r.Register<&ContactSegmentCapsule>(QueryLevel::kContact);
  r.Register<&ContactSphereSphere>(QueryLevel::kContact);
  r.Register<&ContactSphereCapsule>(QueryLevel::kContact);
  r.Register<&ContactCapsuleCapsule>(QueryLevel::kContact);
  r.RegisterRay<&RayCastPoint>();
  r.RegisterRay<&RayCastSegment>();
  r.RegisterRay<&RayCastSphere>();
  r.RegisterRay<&RayCastCapsule>();
}

}  // namespace collide::internal
