// Two oriented boxes seen from box A, and the separating-axis test over
// their 15 candidate axes (Gottschalk, Lin and Manocha, "OBBTree", 1996;
// Ericson, Real-Time Collision Detection 4.4.1). Everything is computed in
// A's frame for round-off: A is centred at the origin with axes e_0..e_2.
// Plain arrays, not Vec3, in the hot loops: Vec3::operator[] with a run-time
// index is a chain of selects.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_

#include <cmath>

#include "collide/math.h"
#include "collide/shapes.h"
#include "query/box/closest_point_box.h"
#include "simd/double2.h"
#include "simd/scalar.h"
#include "simd/select.h"

namespace collide::internal {

// Gottschalk's epsilon: slack added to the edge-edge axes' radii so that a
// cross product of near-parallel edges, which is round-off noise, can never
// report a false separation. Relative to the extents, so it is scale-free;
// 1e-12 dominates the ~1e-16 error of R while keeping false hits below 1e-12
// of the box size. Face axes are tested exactly.
inline constexpr double kSatEpsilon = 1e-12;

inline constexpr int kNext[3] = {1, 2, 0};
inline constexpr int kPrev[3] = {2, 0, 1};

struct BoxPairFrame {
  double r[3][3];       // r[i][j] = a_i . b_j: column j is B's axis j in A's frame.
  double abs_r[3][3];   // |r[i][j]|.
  double t[3];          // B's centre in A's frame.
  double ha[3], hb[3];  // half extents.
  double slack;         // kSatEpsilon * (sum of all half extents).

  Vec3 Centre() const { return {t[0], t[1], t[2]}; }
  Vec3 HalfA() const { return {ha[0], ha[1], ha[2]}; }
  Vec3 HalfB() const { return {hb[0], hb[1], hb[2]}; }
  Vec3 BAxis(int j) const { return {r[0][j], r[1][j], r[2][j]}; }     // in A's frame.
  Vec3 AAxisInB(int i) const { return {r[i][0], r[i][1], r[i][2]}; }  // in B's frame.
};

inline BoxPairFrame MakeBoxPairFrame(const Obb& a, const Obb& b) {
  BoxPairFrame f;
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    const Vec3 bj = TransposeMul(a.rotation, b.rotation.col[j]);
    f.r[0][j] = bj.x;
    f.r[1][j] = bj.y;
    f.r[2][j] = bj.z;
  }
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) f.abs_r[i][j] = std::fabs(f.r[i][j]);
  }
  const Vec3 t = TransposeMul(a.rotation, b.center - a.center);
  f.t[0] = t.x;
  f.t[1] = t.y;
  f.t[2] = t.z;
  const Vec3& ha = a.half_extents;
  const Vec3& hb = b.half_extents;
  f.ha[0] = ha.x, f.ha[1] = ha.y, f.ha[2] = ha.z;
  f.hb[0] = hb.x, f.hb[1] = hb.y, f.hb[2] = hb.z;
  f.slack = kSatEpsilon * (ha.x + ha.y + ha.z + hb.x + hb.y + hb.z);
  return f;
}

// Radius of B along A's axis i, and of A along B's axis j.
inline double RadiusBAlongA(const BoxPairFrame& f, int i) {
  return f.hb[0] * f.abs_r[i][0] + f.hb[1] * f.abs_r[i][1] + f.hb[2] * f.abs_r[i][2];
}
inline double RadiusAAlongB(const BoxPairFrame& f, int j) {
  return f.ha[0] * f.abs_r[0][j] + f.ha[1] * f.abs_r[1][j] + f.ha[2] * f.abs_r[2][j];
}
// B's centre along B's axis j (in A's frame: t . b_j).
inline double CentreAlongB(const BoxPairFrame& f, int j) {
  return f.t[0] * f.r[0][j] + f.t[1] * f.r[1][j] + f.t[2] * f.r[2][j];
}

// The edge-edge axis e_i x b_j (not normalized; its length is the sine of
// the edges' angle): s = t . (e_i x b_j) and ra + rb, the projections
// written out in terms of r (Ericson 4.4.1).
struct EdgeAxis {
  double s;
  double radii;
};
inline EdgeAxis EdgeAxisProjection(const BoxPairFrame& f, int i, int j) {
  const int i1 = kNext[i], i2 = kPrev[i];
  const int j1 = kNext[j], j2 = kPrev[j];
  const double ra = f.ha[i1] * f.abs_r[i2][j] + f.ha[i2] * f.abs_r[i1][j];
  const double rb = f.hb[j1] * f.abs_r[i][j2] + f.hb[j2] * f.abs_r[i][j1];
  return {f.t[i2] * f.r[i1][j] - f.t[i1] * f.r[i2][j], ra + rb};
}

// True when some axis separates the boxes strictly (touching is not
// separated). Face axes are exact; edge axes get the slack.
inline bool SeparatedBoxPair(const BoxPairFrame& f) {
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(f.t[i]) > f.ha[i] + RadiusBAlongA(f, i)) return true;
  }
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    if (std::fabs(CentreAlongB(f, j)) > RadiusAAlongB(f, j) + f.hb[j]) return true;
  }
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) {
      const EdgeAxis e = EdgeAxisProjection(f, i, j);
      if (std::fabs(e.s) > e.radii + f.slack) return true;
    }
  }
  return false;
}

// SeparatedBoxPair with the edge axes' doubt: kNearTouching when no axis
// separates by more than the slack but some edge axis is within the slack
// of separating. If that axis is not parallel to the rounding of r (sine
// above kParallelFeatureTol: EdgeAxisNearTouching), the rounded axis cannot
// decide (box_box_exact_edges.h explains why and decides); otherwise the
// boxes overlap. The caller tells the two apart out of line, from the
// shapes: a call here taking the frame by reference made GCC store the
// whole frame on every pair (~30 instructions per OBB-OBB intersect pair).
enum class BoxSatVerdict { kOverlapping, kSeparated, kNearTouching };
// Whether an edge axis not parallel to the rounding of r (sine above
// kParallelFeatureTol) is within the slack of separating. Out of line: only
// pairs near touching along an edge axis, and aligned boxes (whose parallel
// edge pairs have overlap 0 on their zero axes), come here.
[[gnu::noinline]] inline bool EdgeAxisNearTouching(const BoxPairFrame& f) {
  bool near = false;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const EdgeAxis e = EdgeAxisProjection(f, i, j);
      near |= (e.radii - std::fabs(e.s) < f.slack) &
              (std::fabs(f.r[kNext[i]][j]) + std::fabs(f.r[kPrev[i]][j]) > kParallelFeatureTol);
    }
  }
  return near;
}
inline BoxSatVerdict BoxPairVerdict(const BoxPairFrame& f) {
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    if (std::fabs(f.t[i]) > f.ha[i] + RadiusBAlongA(f, i)) return BoxSatVerdict::kSeparated;
  }
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    if (std::fabs(CentreAlongB(f, j)) > RadiusAAlongB(f, j) + f.hb[j]) return BoxSatVerdict::kSeparated;
  }
  // The overlap o once per axis, for both the test (o < -slack: |s| >
  // radii + slack up to rounding, as ComputeEdgeAxes decides) and the least
  // one: the doubt's tracking costs a minsd per axis, not a second sum.
  const double neg_slack = -f.slack;
  double lowest = kInfinity;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) {
      const EdgeAxis e = EdgeAxisProjection(f, i, j);
      const double o = e.radii - std::fabs(e.s);
      if (o < neg_slack) return BoxSatVerdict::kSeparated;
      lowest = MinBranchFree(lowest, o);
    }
  }
  if (lowest < f.slack) [[unlikely]]
    return BoxSatVerdict::kNearTouching;
  return BoxSatVerdict::kOverlapping;
}

// An edge-edge axis with |e_i x b_j| = sin(angle) below this is skipped:
// dividing its overlap (round-off ~1e-16 of the box size) by the sine
// would amplify the error past 1e-8, while skipping it changes the depth by
// at most about sin * size.
constexpr double kMinEdgeAxisSine = 1e-8;

// All 15 axes in one pass, for the contact and distance kernels, which need
// the extreme axis either way. value[k] is the overlap of the boxes'
// projections on axis k divided by the axis length: the depth along it when
// >= 0, minus the gap when negative (axis numbering as AxisUnit: 0..2 A's
// faces, 3..5 B's faces, 6 + 3i + j the edge axis e_i x b_j). An edge axis
// apart by less than the slack counts as touching (0); a near-parallel edge
// pair is skipped (+infinity). side[k] is B's centre along the axis
// (unnormalized); its sign is the side of B.
struct BoxAxes {
  double value[15];
  double side[15];
  // |e_i x b_j| of edge axis 6 + k, set by ComputeEdgeAxes: AxisUnit's
  // divisor, so that it is not computed again on the critical path.
  double edge_length[9];
  double lowest_edge;  // the least unnormalized edge-axis overlap (ComputeEdgeAxes).
  int least;           // the axis of least value: the depth's, or the largest gap's.
  bool separated;      // some axis separates strictly (as SeparatedBoxPair).
};
// The first axis of least value among value[kBegin, kEnd), after the
// least so far (least_axis, of value least): the axis order of the scalar
// loop, without a branch per axis.
template <int kBegin, int kEnd>
inline int FirstLeastAxis(const double* value, int least_axis, double least) {
#pragma GCC unroll 15
  for (int k = kBegin; k < kEnd; ++k) {
    const double v = value[k];
    least_axis = Select(v < least, k, least_axis);
    least = v < least ? v : least;
  }
  return least_axis;
}

// The six face axes (0..5): sets least and separated for them. Scalar
// meaning, in this order of operations:
//   for i: value[i] = ha[i] + RadiusBAlongA(f, i) - |t[i]|,        side[i] = t[i];
//   for j: value[3 + j] = RadiusAAlongB(f, j) + hb[j] - |s_j|,     side[3 + j] = s_j = CentreAlongB(f, j);
//   separated = some value < 0; least = the first axis of least value.
// In lanes: A's faces 0 and 1, B's faces 0 and 1, then A's face 2 (low) and
// B's face 2 (high), each dot product ((p0 q0 + p1 q1) + p2 q2) as the
// scalar sums.
inline void ComputeFaceAxes(const BoxPairFrame& f, BoxAxes& x) {
  const auto dot = [](Double2 p0, Double2 q0, Double2 p1, Double2 q1, Double2 p2, Double2 q2) {
    return (p0 * q0 + p1 * q1) + p2 * q2;
  };
  // A's faces 0, 1: ha_i + RadiusBAlongA - |t_i|.
  const Double2 t01 = LoadPair(&f.t[0]);
  const Double2 rb01 =
      dot(Splat2(f.hb[0]), Pair(f.abs_r[0][0], f.abs_r[1][0]), Splat2(f.hb[1]),
          Pair(f.abs_r[0][1], f.abs_r[1][1]), Splat2(f.hb[2]), Pair(f.abs_r[0][2], f.abs_r[1][2]));
  const Double2 a01 = (LoadPair(&f.ha[0]) + rb01) - Abs(t01);
  // B's faces 0, 1: RadiusAAlongB + hb_j - |CentreAlongB|.
  const Double2 s01 = dot(Splat2(f.t[0]), LoadPair(&f.r[0][0]), Splat2(f.t[1]), LoadPair(&f.r[1][0]),
                          Splat2(f.t[2]), LoadPair(&f.r[2][0]));
  const Double2 ra01 = dot(Splat2(f.ha[0]), LoadPair(&f.abs_r[0][0]), Splat2(f.ha[1]),
                           LoadPair(&f.abs_r[1][0]), Splat2(f.ha[2]), LoadPair(&f.abs_r[2][0]));
  const Double2 b01 = (ra01 + LoadPair(&f.hb[0])) - Abs(s01);
  // A's face 2 (low lane) and B's face 2 (high lane).
  const double s2 = f.t[0] * f.r[0][2] + f.t[1] * f.r[1][2] + f.t[2] * f.r[2][2];
  const Double2 r2 = dot(Pair(f.hb[0], f.ha[0]), Pair(f.abs_r[2][0], f.abs_r[0][2]), Pair(f.hb[1], f.ha[1]),
                         Pair(f.abs_r[2][1], f.abs_r[1][2]), Pair(f.hb[2], f.ha[2]), Splat2(f.abs_r[2][2]));
  const Double2 ab2 = (r2 + Pair(f.ha[2], f.hb[2])) - Abs(Pair(f.t[2], s2));
  Store(&x.value[0], a01);
  StoreLow(&x.value[2], ab2);
  Store(&x.value[3], b01);
  StoreHigh(&x.value[5], ab2);
  Store(&x.side[0], t01);
  x.side[2] = f.t[2];
  Store(&x.side[3], s01);
  x.side[5] = s2;
  const Double2 zero = Zero2();
  x.separated = MoveMask((a01 < zero) | (b01 < zero) | (ab2 < zero)) != 0;
  x.least = FirstLeastAxis<0, 6>(x.value, 0, kInfinity);
}

// The nine edge axes (6..14), after ComputeFaceAxes: updates least and
// separated. Scalar meaning, for each edge axis k = 6 + 3i + j in this order
// of operations:
//   e = EdgeAxisProjection(f, i, j);  o = e.radii - |e.s|;  lowest_edge = min(lowest_edge, o);
//   len2 = r[i1][j]^2 + r[i2][j]^2;  edge_length[k - 6] = sqrt(len2);
//   value[k] = len2 < kMinEdgeAxisSine^2 ? inf                          (near-parallel edges: skipped)
//            : (o < 0 && o + slack >= 0 ? +0.0 : o) / edge_length[k - 6];  (within the slack: touching)
//   side[k] = e.s;
//   separated |= lowest_edge + slack < 0; least = the first axis of least value.
// Two axes per operation; IEEE products, sums, square root and quotient are
// correctly rounded lane by lane, so the values are the scalar ones bit for
// bit. ~300 fewer instructions per box-box contact pair in pair_bench than
// the scalar loop, which keeps more values than x86-64's 16 registers hold.
//
// One lane computes EdgeAxisProjection's s and radii for e_i x b_j from
// r1 = r[i1][j], r2 = r[i2][j] (i1, i2 = i + 1, i + 2 mod 3), the centre's
// t[i2], t[i1], A's half extents ha[i1], ha[i2], and B's part
// hb[j1] |r[i][j2]| + hb[j2] |r[i][j1]|.
struct EdgeAxisLanes {
  Double2 t_i2, r1, t_i1, r2;            // s = t_i2 r1 - t_i1 r2.
  Double2 ha_i1, ha_i2;                  // ra = ha_i1 |r2| + ha_i2 |r1|.
  Double2 hb_j1, abs_j2, hb_j2, abs_j1;  // rb = hb_j1 abs_j2 + hb_j2 abs_j1.
};
// Value (as above) and side of two edge axes; `lowest` keeps the least
// unnormalized overlap for the separation test.
inline void EdgeAxisPair(const EdgeAxisLanes& l, Double2 slack, Double2& lowest, Double2& value,
                         Double2& side, Double2& length) {
  const Double2 s = l.t_i2 * l.r1 - l.t_i1 * l.r2;
  const Double2 ra = l.ha_i1 * Abs(l.r2) + l.ha_i2 * Abs(l.r1);
  const Double2 rb = l.hb_j1 * l.abs_j2 + l.hb_j2 * l.abs_j1;
  const Double2 o = (ra + rb) - Abs(s);
  lowest = Min(o, lowest);
  const Double2 len2 = l.r1 * l.r1 + l.r2 * l.r2;
  const Double2 zero = Zero2();
  const Double2 touching = (o < zero) & (o + slack >= zero);
  length = Sqrt(len2);
  const Double2 v = ZeroIf(touching, o) / length;
  value = Select(len2 < Splat2(kMinEdgeAxisSine * kMinEdgeAxisSine), Splat2(kInfinity), v);
  side = s;
}

inline void ComputeEdgeAxes(const BoxPairFrame& f, BoxAxes& x) {
  const Double2 slack = Splat2(f.slack);
  Double2 lowest = Splat2(kInfinity);
  Double2 value, side, length;
  // i = 0, 1 in the lanes, one j at a time: axes 6 + j and 9 + j.
  EdgeAxisLanes l;
  l.t_i2 = Pair(f.t[2], f.t[0]);
  l.t_i1 = Pair(f.t[1], f.t[2]);
  l.ha_i1 = Pair(f.ha[1], f.ha[2]);
  l.ha_i2 = Pair(f.ha[2], f.ha[0]);
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    const int j1 = kNext[j], j2 = kPrev[j];
    l.r1 = Pair(f.r[1][j], f.r[2][j]);
    l.r2 = Pair(f.r[2][j], f.r[0][j]);
    l.hb_j1 = Splat2(f.hb[j1]);
    l.hb_j2 = Splat2(f.hb[j2]);
    l.abs_j2 = Pair(f.abs_r[0][j2], f.abs_r[1][j2]);
    l.abs_j1 = Pair(f.abs_r[0][j1], f.abs_r[1][j1]);
    EdgeAxisPair(l, slack, lowest, value, side, length);
    StoreLow(&x.value[6 + j], value);
    StoreHigh(&x.value[9 + j], value);
    StoreLow(&x.side[6 + j], side);
    StoreHigh(&x.side[9 + j], side);
    StoreLow(&x.edge_length[j], length);
    StoreHigh(&x.edge_length[3 + j], length);
  }
  // i = 2: j = 0, 1 in the lanes (axes 12, 13), then j = 2 in both (14).
  l.t_i2 = Splat2(f.t[1]);
  l.t_i1 = Splat2(f.t[0]);
  l.ha_i1 = Splat2(f.ha[0]);
  l.ha_i2 = Splat2(f.ha[1]);
  l.r1 = LoadPair(&f.r[0][0]);
  l.r2 = LoadPair(&f.r[1][0]);
  l.hb_j1 = LoadPair(&f.hb[1]);
  l.hb_j2 = Pair(f.hb[2], f.hb[0]);
  l.abs_j2 = Pair(f.abs_r[2][2], f.abs_r[2][0]);
  l.abs_j1 = LoadPair(&f.abs_r[2][1]);
  EdgeAxisPair(l, slack, lowest, value, side, length);
  Store(&x.value[12], value);
  Store(&x.side[12], side);
  Store(&x.edge_length[6], length);
  l.r1 = Splat2(f.r[0][2]);
  l.r2 = Splat2(f.r[1][2]);
  l.hb_j1 = Splat2(f.hb[0]);
  l.hb_j2 = Splat2(f.hb[1]);
  l.abs_j2 = Splat2(f.abs_r[2][1]);
  l.abs_j1 = Splat2(f.abs_r[2][0]);
  EdgeAxisPair(l, slack, lowest, value, side, length);
  StoreLow(&x.value[14], value);
  StoreLow(&x.side[14], side);
  StoreLow(&x.edge_length[8], length);
  x.least = FirstLeastAxis<6, 15>(x.value, x.least, x.value[x.least]);
  lowest = MinLow(lowest, HighInBoth(lowest));
  x.lowest_edge = Low(lowest);
  x.separated = x.separated | (Low(AddLow(lowest, slack)) < 0.0);
}

// How many of the 15 axes have value v (the tie test of the contact
// kernel); scalar meaning: the count of k with value[k] == v. Two compares
// at a time: ~25 instructions against ~75 for the scalar count.
inline int CountAxesOfValue(const BoxAxes& x, double v) {
  const Double2 target = Splat2(v);
  LaneCount count;
#pragma GCC unroll 7
  for (int k = 0; k < 14; k += 2) count.Add(LoadPair(&x.value[k]) == target);
  return count.Total() + (x.value[14] == v);
}

inline void ComputeBoxAxes(const BoxPairFrame& f, BoxAxes& x) {
  ComputeFaceAxes(f, x);
  ComputeEdgeAxes(f, x);
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_
