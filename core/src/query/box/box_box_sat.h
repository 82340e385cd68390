// Two oriented boxes seen from box A, and the separating-axis test over
// their 15 candidate axes (Gottschalk, Lin and Manocha, "OBBTree", 1996;
// Ericson, Real-Time Collision Detection 4.4.1). Everything is computed in
// A's frame for round-off: A is centred at the origin with axes e_0..e_2.
// Plain arrays, not Vec3, in the hot loops: Vec3::operator[] with a run-time
// index is a chain of selects.
#ifndef COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_
#define COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cmath>

#include "collide/math.h"
#include "collide/shapes.h"
#include "query/box/closest_point_box.h"

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
      lowest = MinsdOf(lowest, o);
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
// The six face axes (0..5): sets least and separated for them.
#if defined(__SSE2__)
// p[0] and p[1] as two 8-byte loads, which GCC may merge or combine with
// the gathers around them as it sees fit; through _mm_loadu_pd it kept the
// 16-byte loads as written (the frame is written 8 bytes at a time, and a
// 16-byte load across two such stores waits for both to reach the cache):
// 60 fewer instructions per OBB-OBB contact pair in pair_bench.
inline __m128d LoadPair(const double* p) { return _mm_loadh_pd(_mm_load_sd(p), p + 1); }

// The first axis of least value among value[kBegin, kEnd), after the
// least so far (least_axis, of value least): the axis order the scalar
// forms keep, without a branch per axis.
template <int kBegin, int kEnd>
inline int FirstLeastAxis(const double* value, int least_axis, double least) {
#pragma GCC unroll 15
  for (int k = kBegin; k < kEnd; ++k) {
    const double v = value[k];
    least_axis = SelectIf(v < least, k, least_axis);
    least = v < least ? v : least;
  }
  return least_axis;
}

// In SSE2 lanes, bit for bit the scalar form below (see ComputeEdgeAxes):
// A's faces 0 and 1, B's faces 0 and 1, then A's face 2 and B's face 2,
// each lane ((p0 q0 + p1 q1) + p2 q2) + h - |side| in the scalar order
// (for A's faces h + radius, the same sum).
inline void ComputeFaceAxes(const BoxPairFrame& f, BoxAxes& x) {
  const __m128d sign_bit = _mm_set1_pd(-0.0);
  const auto abs = [&](__m128d v) { return _mm_andnot_pd(sign_bit, v); };
  const auto pair = [](double lo, double hi) { return _mm_set_pd(hi, lo); };
  const auto dot = [](__m128d p0, __m128d q0, __m128d p1, __m128d q1, __m128d p2, __m128d q2) {
    return _mm_add_pd(_mm_add_pd(_mm_mul_pd(p0, q0), _mm_mul_pd(p1, q1)), _mm_mul_pd(p2, q2));
  };
  // A's faces 0, 1: ha_i + RadiusBAlongA - |t_i|.
  const __m128d t01 = LoadPair(&f.t[0]);
  const __m128d rb01 =
      dot(_mm_set1_pd(f.hb[0]), pair(f.abs_r[0][0], f.abs_r[1][0]), _mm_set1_pd(f.hb[1]),
          pair(f.abs_r[0][1], f.abs_r[1][1]), _mm_set1_pd(f.hb[2]), pair(f.abs_r[0][2], f.abs_r[1][2]));
  const __m128d a01 = _mm_sub_pd(_mm_add_pd(LoadPair(&f.ha[0]), rb01), abs(t01));
  // B's faces 0, 1: RadiusAAlongB + hb_j - |CentreAlongB|.
  const __m128d s01 = dot(_mm_set1_pd(f.t[0]), LoadPair(&f.r[0][0]), _mm_set1_pd(f.t[1]),
                          LoadPair(&f.r[1][0]), _mm_set1_pd(f.t[2]), LoadPair(&f.r[2][0]));
  const __m128d ra01 = dot(_mm_set1_pd(f.ha[0]), LoadPair(&f.abs_r[0][0]), _mm_set1_pd(f.ha[1]),
                           LoadPair(&f.abs_r[1][0]), _mm_set1_pd(f.ha[2]), LoadPair(&f.abs_r[2][0]));
  const __m128d b01 = _mm_sub_pd(_mm_add_pd(ra01, LoadPair(&f.hb[0])), abs(s01));
  // A's face 2 (low lane) and B's face 2 (high lane).
  const double s2 = f.t[0] * f.r[0][2] + f.t[1] * f.r[1][2] + f.t[2] * f.r[2][2];
  const __m128d r2 =
      dot(pair(f.hb[0], f.ha[0]), pair(f.abs_r[2][0], f.abs_r[0][2]), pair(f.hb[1], f.ha[1]),
          pair(f.abs_r[2][1], f.abs_r[1][2]), pair(f.hb[2], f.ha[2]), _mm_set1_pd(f.abs_r[2][2]));
  const __m128d side2 = pair(f.t[2], s2);
  const __m128d ab2 = _mm_sub_pd(_mm_add_pd(r2, pair(f.ha[2], f.hb[2])), abs(side2));
  _mm_storeu_pd(&x.value[0], a01);
  _mm_storel_pd(&x.value[2], ab2);
  _mm_storeu_pd(&x.value[3], b01);
  _mm_storeh_pd(&x.value[5], ab2);
  _mm_storeu_pd(&x.side[0], t01);
  x.side[2] = f.t[2];
  _mm_storeu_pd(&x.side[3], s01);
  x.side[5] = s2;
  const __m128d zero = _mm_setzero_pd();
  const __m128d apart =
      _mm_or_pd(_mm_or_pd(_mm_cmplt_pd(a01, zero), _mm_cmplt_pd(b01, zero)), _mm_cmplt_pd(ab2, zero));
  x.separated = _mm_movemask_pd(apart) != 0;
  x.least = FirstLeastAxis<0, 6>(x.value, 0, kInfinity);
}
#else
inline void ComputeFaceAxes(const BoxPairFrame& f, BoxAxes& x) {
  bool separated = false;
  double least = kInfinity;
  int least_axis = 0;
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    const double o = f.ha[i] + RadiusBAlongA(f, i) - std::fabs(f.t[i]);
    separated |= o < 0.0;
    x.value[i] = o;
    x.side[i] = f.t[i];
    least_axis = SelectIf(o < least, i, least_axis);
    least = o < least ? o : least;
  }
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    const double s = CentreAlongB(f, j);
    const double o = RadiusAAlongB(f, j) + f.hb[j] - std::fabs(s);
    separated |= o < 0.0;
    x.value[3 + j] = o;
    x.side[3 + j] = s;
    least_axis = SelectIf(o < least, 3 + j, least_axis);
    least = o < least ? o : least;
  }
  x.least = least_axis;
  x.separated = separated;
}
#endif

// The nine edge axes (6..14), after ComputeFaceAxes: updates least and
// separated. The overlap along e_i x b_j divided by its length; an axis
// apart by less than the slack counts as touching (0), a near-parallel edge
// pair is skipped (+infinity).
#if defined(__SSE2__)
// Two axes per SSE2 operation (the x86-64 baseline), each lane the same
// operations in the same order as the scalar form below, so the values are
// bit for bit the same (IEEE products, sums, square root and quotient are
// correctly rounded in either form). ~300 fewer instructions per box-box
// contact pair in pair_bench than the scalar form, which keeps more values
// than x86-64's 16 registers hold and std::sqrt's errno path.
//
// One lane computes EdgeAxisProjection's s and radii for e_i x b_j from
// r1 = r[i1][j], r2 = r[i2][j] (i1, i2 = i + 1, i + 2 mod 3), the centre's
// t[i2], t[i1], A's half extents ha[i1], ha[i2], and B's part
// hb[j1] |r[i][j2]| + hb[j2] |r[i][j1]|.
struct EdgeAxisLanes {
  __m128d t_i2, r1, t_i1, r2;            // s = t_i2 r1 - t_i1 r2.
  __m128d ha_i1, ha_i2;                  // ra = ha_i1 |r2| + ha_i2 |r1|.
  __m128d hb_j1, abs_j2, hb_j2, abs_j1;  // rb = hb_j1 abs_j2 + hb_j2 abs_j1.
};
// Value (as the scalar form) and side of two edge axes; `lowest` keeps the
// least unnormalized overlap for the separation test.
inline void EdgeAxisPair(const EdgeAxisLanes& l, __m128d slack, __m128d& lowest, __m128d& value,
                         __m128d& side, __m128d& length) {
  const __m128d sign_bit = _mm_set1_pd(-0.0);
  const __m128d s = _mm_sub_pd(_mm_mul_pd(l.t_i2, l.r1), _mm_mul_pd(l.t_i1, l.r2));
  const __m128d ra = _mm_add_pd(_mm_mul_pd(l.ha_i1, _mm_andnot_pd(sign_bit, l.r2)),
                                _mm_mul_pd(l.ha_i2, _mm_andnot_pd(sign_bit, l.r1)));
  const __m128d rb = _mm_add_pd(_mm_mul_pd(l.hb_j1, l.abs_j2), _mm_mul_pd(l.hb_j2, l.abs_j1));
  const __m128d o = _mm_sub_pd(_mm_add_pd(ra, rb), _mm_andnot_pd(sign_bit, s));
  lowest = _mm_min_pd(o, lowest);
  const __m128d len2 = _mm_add_pd(_mm_mul_pd(l.r1, l.r1), _mm_mul_pd(l.r2, l.r2));
  const __m128d touching =
      _mm_and_pd(_mm_cmplt_pd(o, _mm_setzero_pd()), _mm_cmpge_pd(_mm_add_pd(o, slack), _mm_setzero_pd()));
  length = _mm_sqrt_pd(len2);
  const __m128d v = _mm_div_pd(_mm_andnot_pd(touching, o), length);
  const __m128d skipped = _mm_cmplt_pd(len2, _mm_set1_pd(kMinEdgeAxisSine * kMinEdgeAxisSine));
  value = _mm_or_pd(_mm_and_pd(skipped, _mm_set1_pd(kInfinity)), _mm_andnot_pd(skipped, v));
  side = s;
}

inline void ComputeEdgeAxes(const BoxPairFrame& f, BoxAxes& x) {
  const auto pair = [](double lo, double hi) { return _mm_set_pd(hi, lo); };
  const __m128d slack = _mm_set1_pd(f.slack);
  __m128d lowest = _mm_set1_pd(kInfinity);
  __m128d value, side, length;
  // i = 0, 1 in the lanes, one j at a time: axes 6 + j and 9 + j.
  EdgeAxisLanes l;
  l.t_i2 = pair(f.t[2], f.t[0]);
  l.t_i1 = pair(f.t[1], f.t[2]);
  l.ha_i1 = pair(f.ha[1], f.ha[2]);
  l.ha_i2 = pair(f.ha[2], f.ha[0]);
#pragma GCC unroll 3
  for (int j = 0; j < 3; ++j) {
    const int j1 = kNext[j], j2 = kPrev[j];
    l.r1 = pair(f.r[1][j], f.r[2][j]);
    l.r2 = pair(f.r[2][j], f.r[0][j]);
    l.hb_j1 = _mm_set1_pd(f.hb[j1]);
    l.hb_j2 = _mm_set1_pd(f.hb[j2]);
    l.abs_j2 = pair(f.abs_r[0][j2], f.abs_r[1][j2]);
    l.abs_j1 = pair(f.abs_r[0][j1], f.abs_r[1][j1]);
    EdgeAxisPair(l, slack, lowest, value, side, length);
    _mm_storel_pd(&x.value[6 + j], value);
    _mm_storeh_pd(&x.value[9 + j], value);
    _mm_storel_pd(&x.side[6 + j], side);
    _mm_storeh_pd(&x.side[9 + j], side);
    _mm_storel_pd(&x.edge_length[j], length);
    _mm_storeh_pd(&x.edge_length[3 + j], length);
  }
  // i = 2: j = 0, 1 in the lanes (axes 12, 13), then j = 2 in both (14).
  l.t_i2 = _mm_set1_pd(f.t[1]);
  l.t_i1 = _mm_set1_pd(f.t[0]);
  l.ha_i1 = _mm_set1_pd(f.ha[0]);
  l.ha_i2 = _mm_set1_pd(f.ha[1]);
  l.r1 = LoadPair(&f.r[0][0]);
  l.r2 = LoadPair(&f.r[1][0]);
  l.hb_j1 = LoadPair(&f.hb[1]);
  l.hb_j2 = pair(f.hb[2], f.hb[0]);
  l.abs_j2 = pair(f.abs_r[2][2], f.abs_r[2][0]);
  l.abs_j1 = LoadPair(&f.abs_r[2][1]);
  EdgeAxisPair(l, slack, lowest, value, side, length);
  _mm_storeu_pd(&x.value[12], value);
  _mm_storeu_pd(&x.side[12], side);
  _mm_storeu_pd(&x.edge_length[6], length);
  l.r1 = _mm_set1_pd(f.r[0][2]);
  l.r2 = _mm_set1_pd(f.r[1][2]);
  l.hb_j1 = _mm_set1_pd(f.hb[0]);
  l.hb_j2 = _mm_set1_pd(f.hb[1]);
  l.abs_j2 = _mm_set1_pd(f.abs_r[2][1]);
  l.abs_j1 = _mm_set1_pd(f.abs_r[2][0]);
  EdgeAxisPair(l, slack, lowest, value, side, length);
  _mm_storel_pd(&x.value[14], value);
  _mm_storel_pd(&x.side[14], side);
  _mm_storel_pd(&x.edge_length[8], length);
  x.least = FirstLeastAxis<6, 15>(x.value, x.least, x.value[x.least]);
  lowest = _mm_min_sd(lowest, _mm_unpackhi_pd(lowest, lowest));
  x.lowest_edge = _mm_cvtsd_f64(lowest);
  x.separated = x.separated | (_mm_cvtsd_f64(_mm_add_sd(lowest, slack)) < 0.0);
}
#else
inline void ComputeEdgeAxes(const BoxPairFrame& f, BoxAxes& x) {
  // The least overlap, tested once: cheaper than a flag per axis.
  double least_overlap = kInfinity;
  int least_axis = x.least;
  double least = x.value[least_axis];
#pragma GCC unroll 3
  for (int i = 0; i < 3; ++i) {
    const int i1 = kNext[i], i2 = kPrev[i];
#pragma GCC unroll 3
    for (int j = 0; j < 3; ++j) {
      const EdgeAxis e = EdgeAxisProjection(f, i, j);
      const double o = e.radii - std::fabs(e.s);
      least_overlap = o < least_overlap ? o : least_overlap;
      const double len2 = f.r[i1][j] * f.r[i1][j] + f.r[i2][j] * f.r[i2][j];
      const double touching_or_o = ZeroIf((o < 0.0) & (o + f.slack >= 0.0), o);
      const double length = std::sqrt(len2);
      const double v = len2 < kMinEdgeAxisSine * kMinEdgeAxisSine ? kInfinity : touching_or_o / length;
      const int k = 6 + 3 * i + j;
      x.edge_length[k - 6] = length;
      x.value[k] = v;
      x.side[k] = e.s;
      least_axis = SelectIf(v < least, k, least_axis);
      least = v < least ? v : least;
    }
  }
  x.least = least_axis;
  x.lowest_edge = least_overlap;
  x.separated = x.separated | (least_overlap + f.slack < 0.0);
}
#endif

// How many of the 15 axes have value v (the tie test of the contact
// kernel): SSE2 compares two at a time, ~25 instructions against ~75 for
// the scalar count.
inline int CountAxesOfValue(const BoxAxes& x, double v) {
#if defined(__SSE2__)
  const __m128d target = _mm_set1_pd(v);
  __m128i count = _mm_setzero_si128();
#pragma GCC unroll 7
  for (int k = 0; k < 14; k += 2) {
    // A lane that compares equal is all ones: -1 per equal axis.
    count = _mm_sub_epi64(count, _mm_castpd_si128(_mm_cmpeq_pd(LoadPair(&x.value[k]), target)));
  }
  count = _mm_add_epi64(count, _mm_unpackhi_epi64(count, count));
  return static_cast<int>(_mm_cvtsi128_si64(count)) + (x.value[14] == v);
#else
  int equal = 0;
  for (int k = 0; k < 15; ++k) equal += x.value[k] == v;
  return equal;
#endif
}

inline void ComputeBoxAxes(const BoxPairFrame& f, BoxAxes& x) {
  ComputeFaceAxes(f, x);
  ComputeEdgeAxes(f, x);
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_BOX_BOX_BOX_SAT_H_
