// Closest points of two segments, out of line (closest_segments.h).
#include "query/closest/closest_segments.h"

namespace collide::internal {

SegmentPoints ClosestPointsSegments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  return ClosestPointsSegmentsInline(p1, q1, p2, q2);
}

}  // namespace collide::internal
