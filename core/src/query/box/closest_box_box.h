// Exact closest points of two separated oriented boxes, in A's frame: the
// hot start shared by the distance and contact kernels inline here, the
// certificates and the edge search in closest_box_box.cc.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_BOX_BOX_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_BOX_BOX_H_

#include <cmath>
#include <limits>

#include "collide/math.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "query/box/box_box_sat.h"
#include "query/box/closest_point_box.h"
#include "query/closest/closest.h"
#include "simd/select.h"

namespace collide::internal {

// The reference box is centred at the origin of its frame with half extents
// hr; its face i on side `sign` faces the incident box (centre c, axes ax,
// half extents hi, all in the reference frame). Returns a point of the
// incident box's support feature towards the reference face (a vertex, or an
// edge or face parallel to it) whose projection along e_i lies in that face:
// the feature clipped by the face's four side planes, averaged. The
// Minkowski argument guarantees the clip is non-empty when the face axis is
// the axis of least overlap. Returns false, with `out` the feature's centre,
// when the feature's projection misses the face (or round-off hides it).
bool IncidentPoint(const Vec3& hr, int i, double sign, const Vec3& c, const Vec3 ax[3], const Vec3& hi,
                   Vec3& out);

// The edge-edge axis e_i x b_j (axis 6 + 3i + j) in A's frame, not
// normalized.
inline Vec3 EdgeAxisCross(const BoxPairFrame& f, int axis) {
  const int i = (axis - 6) / 3, j = (axis - 6) % 3;
  // -r[i2][j] at coordinate i1, r[i1][j] at i2, 0 at i (as Axis: selects,
  // not an array written at run-time indices).
  const double at_next = -f.r[kPrev[i]][j], at_prev = f.r[kNext[i]][j];
  const auto coordinate = [&](int k) {
    return Select(k == kNext[i], at_next, Select(k == kPrev[i], at_prev, 0.0));
  };
  return {coordinate(0), coordinate(1), coordinate(2)};
}

// Unit axis `axis` in A's frame: 0..2 A's faces, 3..5 B's faces, 6 + 3i + j
// the edge-edge axis e_i x b_j.
inline Vec3 AxisUnit(const BoxPairFrame& f, int axis) {
  if (axis < 3) return Axis(axis, 1.0);
  if (axis < 6) return f.BAxis(axis - 3);
  const Vec3 v = EdgeAxisCross(f, axis);
  return v / Length(v);
}

// The same with the edge axes' lengths that ComputeEdgeAxes kept: Length(v)
// is sqrt((v_x^2 + v_y^2) + v_z^2) with one term an exact zero, which is
// bit for bit its sqrt(r[i1][j]^2 + r[i2][j]^2) (x + 0 = x, and the sum of
// the other two commutes).
inline Vec3 AxisUnit(const BoxPairFrame& f, const BoxAxes& x, int axis) {
  if (axis < 6) return AxisUnit(f, axis);
  return EdgeAxisCross(f, axis) / x.edge_length[axis - 6];
}

struct BoxBoxClosest {
  double distance_squared;
  Vec3 on_a, on_b;  // A's frame.
};

// Exact closest points of two separated boxes. For disjoint convex polytopes
// some closest pair has a point on an edge of A or on an edge of B (a face-
// face pair can slide to a vertex of the overlap of the two faces'
// projections, which lies on an edge of one of them), so the least of the
// edge-to-solid-box distances, each exact (ClosestSegmentBoxFrame), is the
// distance. The normal-cone test keeps a few of the 24 edges; they are tried
// in order of a cheap lower bound, stopping when it reaches the best so far.
// Measured on random pairs: ~8 candidates, ~3 evaluated.
BoxBoxClosest ClosestBoxBoxFrame(const BoxPairFrame& f);

// A point in both of two overlapping boxes, in A's frame, or false if round-
// off hides it (touching boxes). If convex polytopes meet, one contains a
// vertex of the other or an edge of one crosses a face of the other, so some
// edge of B meets A or some edge of A meets B.
bool CommonPointBoxBox(const BoxPairFrame& f, Vec3& out);

// The edge-edge axis e_i x b_j with unit normal n (A's frame, towards B):
// A's edge along e_i on A's support towards n, B's edge along b_j on B's
// support towards -n, and the parameters (s along e_i from ea, u along b_j
// from eb) of the feet of their lines' common perpendicular.
struct SupportEdges {
  Vec3 ea, eb;  // edge centres, A's frame.
  double s, u;
};

inline SupportEdges SupportEdgesAlong(const BoxPairFrame& f, int i, int j, const Vec3& n) {
  SupportEdges e;
#pragma GCC unroll 3
  for (int k = 0; k < 3; ++k) e.ea[k] = ZeroIf(k == i, NegatedIf(n[k] < 0.0, f.ha[k]));
  e.eb = f.Centre();
  // B's two axes other than j, in increasing order.
  for (const int m : {j == 0 ? 1 : 0, j == 2 ? 1 : 2}) {
    const Vec3 bm = f.BAxis(m);
    e.eb += bm * NegatedIf(Dot(n, bm) > 0.0, f.hb[m]);
  }
  const Vec3 ei = Axis(i, 1.0), bj = f.BAxis(j);
  const Vec3 cross = Cross(ei, bj);
  const double len2 = LengthSquared(cross);
  e.s = CommonPerpendicularNumerator(e.eb - e.ea, bj, cross) / len2;
  e.u = CommonPerpendicularNumerator(e.eb - e.ea, ei, cross) / len2;
  return e;
}

// Closest points of two separated boxes certified by the separating axis of
// largest gap (x.least, from ComputeBoxAxes): the gap along a separating axis
// is a lower bound of the distance, so support features along it that are
// that far apart are closest points; where they are not, a support vertex
// whose projections give it back is (CertifiedClosestAlong in
// closest_box_box.cc). False when neither certifies a pair, or when the
// rounded axes do not say apart.
bool CertifiedClosestBoxBox(const BoxPairFrame& f, const BoxAxes& x, BoxBoxClosest& out);
// The same, computing the 15 axes.
bool CertifiedClosestBoxBox(const BoxPairFrame& f, BoxBoxClosest& out);

// The kDistance/kContact result of two boxes apart with closest points c
// (A's frame).
inline PairResult ApartResult(const Obb& a, const BoxBoxClosest& c) {
  const double dist = std::sqrt(c.distance_squared);
  const Vec3 n = NormalizedOr(c.on_b - c.on_a, Vec3{1, 0, 0});
  // The separating-axis test decided "apart"; the exact closest points can
  // still coincide to the last bit (a rounded edge axis reported a gap of a
  // few ulps). Report the smallest positive distance then, so that hit ==
  // (distance <= 0) holds with the SAT's decision (a fuzz finding).
  return {QueryStatus::kOk,
          false,
          dist > 0.0 ? dist : std::numeric_limits<double>::denorm_min(),
          a.rotation * c.on_a + a.center,
          a.rotation * c.on_b + a.center,
          a.rotation * n};
}

// True when an edge of A and one of B are nearly but not quite parallel
// (sine between ~kParallelFeatureTol and ~1/16). The certificates (CertifiedClosestAlong's edge-edge
// feet, the vertex and alternating-projection fixed points) are then
// ill-conditioned: the feet of two nearly parallel edges' common
// perpendicular move ~eps / sin^2 along them, and a pair that projects back
// onto itself to the last bit need not be the closest, the distance off by
// up to ~eps / sin (3e-9 seen at sin 1e-6; issue 14, class 1). The edge
// search (ClosestBoxBoxFrame, exact edge-to-box distances) answers them.
bool HasNearlyParallelEdgesSlow(const BoxPairFrame& f);

inline bool HasNearlyParallelEdges(const BoxPairFrame& f) {
  // The largest |r_ij| first: random pairs stop here.
  double largest = 0.0;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) largest = f.abs_r[i][j] > largest ? f.abs_r[i][j] : largest;
  }
  return largest > 0.998 && HasNearlyParallelEdgesSlow(f);
}

// The closest points of two boxes that the separating-axis test found
// apart, given its 15 axes (ComputeBoxAxes): the closest pair the
// largest-gap axis certifies, else alternating projections from A's support
// vertex along that axis, else the edge search.
BoxBoxClosest ApartClosestBoxBox(const BoxPairFrame& f, const BoxAxes& x);

// The start shared by the box-box distance and contact kernels, so that
// both report the same closest points: true with their closest points in c
// (A's frame; ApartResult makes the result) when the boxes are separated,
// else false with all 15 axes in x. A face axis that separates usually
// certifies the closest pair on its own (measured: 55% of random separated
// pairs), and the nine edge axes are then not needed. The caller builds its
// PairResult in one expression: a default-constructed PairResult filled
// later compiled to a slow `rep stos` zero fill.
[[gnu::always_inline]] inline bool SeparatedBoxBox(const BoxPairFrame& f, BoxAxes& x, BoxBoxClosest& c) {
  ComputeFaceAxes(f, x);
  const bool near_parallel = HasNearlyParallelEdges(f);
  if (x.separated && !near_parallel && CertifiedClosestBoxBox(f, x, c)) return true;
  ComputeEdgeAxes(f, x);
  if (!x.separated) return false;
  c = near_parallel ? ClosestBoxBoxFrame(f) : ApartClosestBoxBox(f, x);
  return true;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_CLOSEST_BOX_BOX_H_
