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

#include <cmath>

#include "collide/math.h"
#include "query/box/closest_point_box.h"
#include "query/box/exact_cross.h"
#include "simd/scalar.h"

namespace collide::internal {

struct TriangleBox {
  Vec3 v[3];    // the triangle (shape A), in the box's frame.
  Vec3 lo, hi;  // the box (shape B): lo <= x <= hi.
};

// Calls visit(index, axis, plus, minus, length) for each of the 13 axes (0
// vectors skipped; index as TriangleBoxOverlap::axis), until it returns
// true: moving B by plus / length along the axis separates the shapes, or by
// minus / length against it (negative: the shapes are apart by that much
// along it). The axes are not unit vectors; kLength: their lengths are
// computed (the contact level needs overlaps in length units; the
// separation test only their signs, and gets 1). Projections are taken
// relative to the box's centre, where it spans [-r, r] along the axis; an
// edge axis's triangle interval is spanned by the edge's first vertex and
// the opposite one (the edge's ends project alike but for round-off of the
// edge vector, which moves the triangle by ~eps of its size), and its zero
// component is left out (Akenine-Moeller). Minima and maxima are the
// BranchFree forms: the order of the triangle's coordinates and projections
// is random on random pairs, and branches on it mispredict (pair_bench
// intersect AABB-triangle 54 -> 38 ns).
template <bool kLength, typename Visit>
void ForEachTriangleBoxAxis(const TriangleBox& f, Visit&& visit) {
  const Vec3 *v = f.v, &lo = f.lo, &hi = f.hi;
  // The box's faces: exact, on its bounds.
  for (int k = 0; k < 3; ++k) {
    const double tmin = MinBranchFree(MinBranchFree(v[0][k], v[1][k]), v[2][k]);
    const double tmax = MaxBranchFree(MaxBranchFree(v[0][k], v[1][k]), v[2][k]);
    if (visit(k, Axis(k, 1.0), tmax - lo[k], hi[k] - tmin, 1.0)) return;
  }
  const Vec3 c = (lo + hi) * 0.5, h = (hi - lo) * 0.5;
  const Vec3 w[3] = {v[0] - c, v[1] - c, v[2] - c};
  // The interval [t0, t1] (either order) of the triangle along l, the box's
  // [-r, r].
  int index = 3;
  const auto overlaps = [&](const Vec3& l, double t0, double t1, double r) {
    const double plus = MaxBranchFree(t0, t1) + r, minus = r - MinBranchFree(t0, t1);
    return visit(index++, l, plus, minus, kLength ? std::sqrt(LengthSquared(l)) : 1.0);
  };
  const Vec3 e[3] = {v[1] - v[0], v[2] - v[1], v[0] - v[2]};
  const Vec3 ac = v[2] - v[0];
  Vec3 n = Cross(e[0], ac);
  // A sliver's normal (sine below 1e-3, as ClosestPointOnTriangle's thin
  // test): its plain cross product cancels.
  if (!(LengthSquared(n) > 1e-6 * LengthSquared(e[0]) * LengthSquared(ac))) n = ExactCross(e[0], ac);
  if (n == Vec3{}) {
    ++index;
  } else {
    const double t0 = Dot(n, w[0]), t1 = Dot(n, w[1]), t2 = Dot(n, w[2]);
    const double r = Dot(Abs(n), h);
    if (overlaps(n, MinBranchFree(MinBranchFree(t0, t1), t2), MaxBranchFree(MaxBranchFree(t0, t1), t2), r))
      return;
  }
  for (int m = 0; m < 3; ++m) {
    const Vec3 &d = e[m], &p = w[m], &q = w[(m + 2) % 3];
    const Vec3 ad = Abs(d);
    // d x a_0 = (0, d_z, -d_y), d x a_1 = (-d_z, 0, d_x), d x a_2 = (d_y, -d_x, 0):
    // exact given d.
    if ((d.y != 0.0) | (d.z != 0.0)) {
      if (overlaps({0.0, d.z, -d.y}, d.z * p.y - d.y * p.z, d.z * q.y - d.y * q.z, h.y * ad.z + h.z * ad.y))
        return;
    } else {
      ++index;
    }
    if ((d.x != 0.0) | (d.z != 0.0)) {
      if (overlaps({-d.z, 0.0, d.x}, d.x * p.z - d.z * p.x, d.x * q.z - d.z * q.x, h.x * ad.z + h.z * ad.x))
        return;
    } else {
      ++index;
    }
    if ((d.x != 0.0) | (d.y != 0.0)) {
      if (overlaps({d.y, -d.x, 0.0}, d.y * p.x - d.x * p.y, d.y * q.x - d.x * q.y, h.x * ad.y + h.y * ad.x))
        return;
    } else {
      ++index;
    }
  }
}

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
