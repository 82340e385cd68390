// Closest points of a segment and a triangle (a closest-point building block,
// see closest.h and closest_triangle.h for the point ones).
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENT_TRIANGLE_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENT_TRIANGLE_H_

#include <optional>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::internal {

// Everything relative to the segment's start p (its rounding is then relative
// to the segment's length and the triangle's distance, not to coordinates).
struct SegmentTriangleClosest {
  Vec3 on_segment;   // the segment's closest point, minus p.
  Vec3 on_triangle;  // the triangle's closest point, minus p.
  // on_triangle - on_segment, formed from the candidate's own offsets
  // (exact to rounding relative to the distance, not to the points).
  Vec3 diff;
  double d2;  // |diff|^2, 0 when the segment crosses the triangle.
  // A unit-or-zero-free direction along which the pair separates (diff
  // corrected into the normal cone: the face normal for an endpoint over the
  // face, the common perpendicular for an edge crossing the segment's
  // interior); any positive length.
  Vec3 direction;
  // (16 eps)^2 times the pair's size squared: d2 at or below it counts as
  // the segment touching the triangle (the rounding of the points computed).
  double touch2;
  bool crossing;  // the segment crosses the closed triangle: d2 = 0.
};

// The closest points of segment [p, q] and triangle t: either a crossing of
// the segment with the closed triangle (distance 0), or the nearest of the
// five candidates that involve a feature's boundary: each endpoint against
// the triangle (ClosestPointOnTriangle) and the segment against each edge
// (ClosestPointsSegmentsInline). A distance between a segment and a convex
// set is reached at a segment endpoint or, for an interior point, against a
// boundary feature of the triangle unless the segment meets the triangle's
// interior, so the minimum of these is the distance (Ericson, Real-Time
// Collision Detection 5.1.10). nullopt for a degenerate triangle (by the
// GJK sub-algorithm's collinearity test, as ClosestPointOnTriangle).
std::optional<SegmentTriangleClosest> ClosestSegmentTriangle(const Vec3& p, const Vec3& q, const Triangle& t);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENT_TRIANGLE_H_
