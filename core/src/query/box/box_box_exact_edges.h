// The nine edge-edge axes of two boxes computed exactly to round-off, for
// the pairs where the separating-axis test's rounded edge axes cannot decide
// (issue 14, class 1: nearly parallel edges).
//
// Why the fast test loses the answer there: it works in A's frame with
// r = R_A^T R_B rounded (error ~eps per entry), and the edge axis e_i x b_j
// is read off r, so for edges at an angle of sine s its direction is off by
// ~eps / s. Along the axis the boxes' supports are whole edges, so a tilt
// of the axis by eps / s moves the projections by ~eps / s times the edge
// length: the overlap divided by s (the normalized depth or gap) is off by
// ~eps * size / s, 1e-10 at s = 1e-6. The slack that kept that noise from
// reporting false separations (kSatEpsilon, 1e-12 of the size, divided by
// s) then swallowed real gaps up to ~1e-7 (reported touching), and the
// depth of an overlap along such an axis was off by as much.
//
// The exact axis: the cross product of the two edge directions as given
// (the input rotations' columns, in world coordinates, not through r), each
// component a difference of two products computed with Kahan's fma
// algorithm (accurate to ~1 ulp of the result however much it cancels), so
// the unit axis is exact to ~eps in every direction and the overlap along
// it, evaluated with world dot products, to ~eps times the scene size.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_EXACT_EDGES_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_EXACT_EDGES_H_

#include "collide/math.h"
#include "collide/shapes.h"
#include "query/box/box_box_sat.h"

namespace collide::internal {

struct ExactEdgeAxes {
  double value[9];  // overlap along unit axis k (< 0: the gap); +inf for exactly parallel edges.
  double side[9];   // B's centre along the axis: its sign is B's side.
  Vec3 unit[9];     // the unit axis in A's frame.
  bool separated;   // some edge axis separates (value < 0).
};

// Edge axis 6 + 3i + j of BoxAxes is index 3i + j here.
ExactEdgeAxes ComputeExactEdgeAxes(const Obb& a, const Obb& b);

// True when the rounded edge axes in x (ComputeEdgeAxes) cannot be trusted
// for the pair's answer: an edge axis (sine above kParallelFeatureTol)
// within the slack of touching, or, when `least_too`, the least axis an
// edge axis of sine below 1/16 (its value off by more than the accuracy
// contract's 64 eps of the size). Near-parallel axes skipped by
// ComputeEdgeAxes (sine below 1e-8) stay skipped unless near touching: the
// depth may then be off by up to ~1e-8 of the size.
bool EdgeAxesUncertain(const BoxPairFrame& f, const BoxAxes& x, bool least_too);

// x's edge axes replaced by the exact ones (values, sides), least and
// separated recomputed; units receives the unit axes (A's frame).
void UseExactEdgeAxes(const ExactEdgeAxes& e, BoxAxes& x);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_EXACT_EDGES_H_
