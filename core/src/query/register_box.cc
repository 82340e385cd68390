// Registers the specialized kernels of this family (see registry.h): boxes
// against points, segments, spheres, capsules, boxes and triangles, and box
// ray casts. Box pairs with hulls and halfspaces go to the convex fallback.
#include "query/kernels_box.h"
#include "query/registry.h"

namespace collide::internal {

void RegisterBoxKernels(Registry& r) {
  r.Register<&IntersectPointAabb>(QueryLevel::kIntersect);
  r.Register<&DistancePointAabb>(QueryLevel::kDistance);
  r.Register<&ContactPointAabb>(QueryLevel::kContact);
  r.Register<&IntersectPointObb>(QueryLevel::kIntersect);
  r.Register<&DistancePointObb>(QueryLevel::kDistance);
  r.Register<&ContactPointObb>(QueryLevel::kContact);
  r.Register<&IntersectSegmentAabb>(QueryLevel::kIntersect);
  r.Register<&DistanceSegmentAabb>(QueryLevel::kDistance);
  r.Register<&ContactSegmentAabb>(QueryLevel::kContact);
  r.Register<&IntersectSegmentObb>(QueryLevel::kIntersect);
  r.Register<&DistanceSegmentObb>(QueryLevel::kDistance);
  r.Register<&ContactSegmentObb>(QueryLevel::kContact);
  r.Register<&IntersectSphereAabb>(QueryLevel::kIntersect);
  r.Register<&DistanceSphereAabb>(QueryLevel::kDistance);
  r.Register<&ContactSphereAabb>(QueryLevel::kContact);
  r.Register<&IntersectSphereObb>(QueryLevel::kIntersect);
  r.Register<&DistanceSphereObb>(QueryLevel::kDistance);
  r.Register<&ContactSphereObb>(QueryLevel::kContact);
  r.Register<&IntersectCapsuleAabb>(QueryLevel::kIntersect);
  r.Register<&DistanceCapsuleAabb>(QueryLevel::kDistance);
  r.Register<&ContactCapsuleAabb>(QueryLevel::kContact);
  r.Register<&IntersectCapsuleObb>(QueryLevel::kIntersect);
  r.Register<&DistanceCapsuleObb>(QueryLevel::kDistance);
  r.Register<&ContactCapsuleObb>(QueryLevel::kContact);
  r.Register<&IntersectAabbAabb>(QueryLevel::kIntersect);
  r.Register<&DistanceAabbAabb>(QueryLevel::kDistance);
  r.Register<&ContactAabbAabb>(QueryLevel::kContact);
  r.Register<&IntersectAabbObb>(QueryLevel::kIntersect);
  r.Register<&DistanceAabbObb>(QueryLevel::kDistance);
  r.Register<&ContactAabbObb>(QueryLevel::kContact);
  r.Register<&IntersectObbObb>(QueryLevel::kIntersect);
  r.Register<&DistanceObbObb>(QueryLevel::kDistance);
  r.Register<&ContactObbObb>(QueryLevel::kContact);
  r.Register<&IntersectAabbTriangle>(QueryLevel::kIntersect);
  r.Register<&DistanceAabbTriangle>(QueryLevel::kDistance);
  r.Register<&ContactAabbTriangle>(QueryLevel::kContact);
  r.Register<&IntersectObbTriangle>(QueryLevel::kIntersect);
  r.Register<&DistanceObbTriangle>(QueryLevel::kDistance);
  r.Register<&ContactObbTriangle>(QueryLevel::kContact);
  r.RegisterRay<&RayCastAabb>();
  r.RegisterRay<&RayCastObb>();
}

}  // namespace collide::internal
