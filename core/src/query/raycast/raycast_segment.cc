// Ray cast against a segment: a capsule of radius 0, hit only when the ray
// meets the segment exactly (as segment-segment queries need distance 0).
// Normal: perpendicular to the segment, facing the ray origin.
#include "query/kernels_round.h"

namespace collide::internal {

RayHit RayCastSegment(const Ray& ray, const Segment& s) {
  return RayCastCapsule(ray, Capsule{s.a, s.b, 0.0});
}

}  // namespace collide::internal
