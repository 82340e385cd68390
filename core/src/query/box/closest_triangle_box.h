// Exact closest points, common points and contact of a triangle and a box,
// in the box's frame (triangle_box_sat.h: TriangleBox), for the
// triangle-box kernels at every level.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_TRIANGLE_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_TRIANGLE_BOX_H_

#include "collide/math.h"
#include "collide/result.h"
#include "query/box/triangle_box_sat.h"

namespace collide::internal {

struct TriangleBoxClosest {
  double distance_squared;
  Vec3 on_triangle, on_box;
};

// Closest points of the triangle and the solid box. For disjoint convex
// polytopes some closest pair has its triangle point on an edge of the
// triangle or its box point at a vertex of the box (a pair with the
// triangle point inside the triangle and the box point inside a face or
// edge slides, within the set of closest pairs, to a vertex of that set:
// a vertex of the triangle's projection, on its edges, or of the box
// feature). So the distance is the least of the three edge-to-box distances
// (ClosestSegmentBoxFrame, exact) and the box vertices' distances to the
// triangle (ClosestPointOnTriangle), each well-conditioned: no direction is
// computed from nearly parallel features, unlike GJK's simplex, whose
// plane through three nearly coplanar support points is what lost class 2.
// A box vertex is a candidate only if the triangle reaches into its
// Voronoi region (the octant beyond it), where the triangle point of a pair
// at that vertex must lie; candidates go best-first by a lower bound
// (bounding-box gaps), stopping when it reaches the best so far.
// `known_apart`: the shapes are separated (no edge clip needed).
TriangleBoxClosest ClosestTriangleBox(const TriangleBox& f, bool known_apart);

// Witnesses of a triangle and a box that touch once the box is moved by
// `shift`, meeting along `axis` (TriangleBoxOverlap::axis) whose unit
// `normal` points from the triangle towards the box: read off the support
// features when they meet there (exact), else a closest pair of the
// triangle and the moved box. on_box is on the box as given (unmoved).
TriangleBoxClosest TouchingWitnesses(const TriangleBox& f, int axis, const Vec3& normal, const Vec3& shift);

// The three levels with the triangle as shape A and the box as B, in the
// box's frame.
bool IntersectTriangleBoxFrame(const TriangleBox& f);
PairResult DistanceTriangleBoxFrame(const TriangleBox& f);
PairResult ContactTriangleBoxFrame(const TriangleBox& f);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_TRIANGLE_BOX_H_
