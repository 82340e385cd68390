// A triangle and a box seen from the box, and the separating-axis test over
// their 13 candidate axes (Akenine-Moeller, "Fast 3D Triangle-Box Overlap
// Testing", 2001; Ericson, Real-Time Collision Detection 5.2.9): the box's
// three face normals, the triangle's normal and the nine cross products of
// a triangle edge with a box axis. These are the face normals of the
// Minkowski difference, so the least overlap over them is also the
// penetration depth (issue 14, class 2).
//
// Why this is exact to round-off of the scene's size where GJK/EPA was not
// (a triangle 1e-9 rad from parallel to a box face, 1e-9 apart: distances
// off by half, overlaps of 4e-11 missed): in the box's frame every axis is
// read off the triangle's own edge vectors, without a rounded rotation
// between them. An edge axis e x a_i is (0, e_z, -e_y) and its cyclic
// shifts: each component one rounded subtraction of two vertex coordinates,
// so its direction is exact to ~eps however short it is (an edge nearly
// parallel to a box axis), and nothing has to be dropped or padded by a
// slack; only an exactly zero cross product (an edge exactly parallel to a
// box axis, whose Minkowski face is then the box's or the triangle's) is
// skipped. The triangle's normal is the plain cross product of two edges,
// or, for a sliver (sine of its angle below 1e-3), Kahan's ExactCross, whose
// components are exact to an ulp where the plain products cancel. The
// projections along a unit axis are then exact to a few eps times the
// coordinates, and the overlap of the two intervals along it to ~eps S.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_TRIANGLE_BOX_SAT_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_TRIANGLE_BOX_SAT_H_

#include "collide/math.h"

namespace collide::internal {

struct TriangleBox {
  Vec3 v[3];    // the triangle (shape A), in the box's frame.
  Vec3 lo, hi;  // the box (shape B): lo <= x <= hi.
};

// True when some axis separates the triangle and the box strictly
// (touching is not separated).
bool SeparatedTriangleBox(const TriangleBox& f);

struct TriangleBoxOverlap {
  bool separated;  // some axis separates strictly; depth and normal unset then.
  double depth;    // the least overlap over the axes: the penetration depth (>= 0).
  Vec3 normal;     // its unit axis, the direction to move B to separate (A towards B).
  int axis;        // 0..2: the box's face axes; 3: the triangle's normal; 4 + 3m + i: edge m x box axis i.
};
// The least overlap of the 13 axes, stopping at the first that separates.
TriangleBoxOverlap LeastOverlapTriangleBox(const TriangleBox& f);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_TRIANGLE_BOX_SAT_H_
