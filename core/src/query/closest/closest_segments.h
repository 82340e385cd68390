// Closest points of two segments.
//
// The structure is Ericson, Real-Time Collision Detection 5.1.9: minimize
// |(p1 + s*d1) - (p2 + t*d2)|^2 over the unit square by taking the lines'
// closest parameter s, clamping it, projecting it onto segment 2 for t, and
// if t is clamped, reprojecting t onto segment 1 for s. This is exact for a
// convex quadratic (clamping s to an edge of the square, the constrained
// minimum lies on that edge or on the t edge reached from it). Changes for
// robustness:
//  - s comes from the cross-product form (CommonPerpendicularNumerator), so
//    nearly parallel segments keep an accurate distance;
//  - parallel is decided on sin^2(angle), a scale-free test, and answered by
//    the midpoint of the overlap so the pair is deterministic;
//  - zero-length segments are tested exactly (a == 0), there is no epsilon
//    that would turn a short segment into a point;
//  - everything is relative to p1 (the result adds offsets back to p1, p2).
// And for speed, inline so that the capsule kernels share d1, d2 and their
// cross product with their normal's computation (SeparationOf), and with the
// clamps as min/max and the reprojection a select: on random capsule pairs
// each outcome of "s clamped, t clamped" is common, so branches on them are
// mispredicted often, and the divisions they saved cost less than that
// (capsule-capsule intersect ~35-50 ns against ~50-56 ns with branches, in
// the same pair_bench runs).
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENTS_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENTS_H_

#include "collide/math.h"
#include "query/closest/closest.h"

namespace collide::internal {

struct SegmentPoints {
  double s = 0.0;  // on segment 1: point1 = p1 + s * (q1 - p1).
  double t = 0.0;  // on segment 2: point2 = p2 + t * (q2 - p2).
  Vec3 point1;
  Vec3 point2;
};

// Closest points of segments [p1, q1] and [p2, q2], either of which may have
// zero length. When the closest pair is not unique (parallel segments whose
// projections overlap), the pair at the midpoint of the overlap on segment 1.
// Out of line (closest_segments.cc), for the box kernels' rare parallel-
// feature paths: the body visible there cost the capsule-box contact 14
// instructions per pair (register allocation).
SegmentPoints ClosestPointsSegments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

// The same, inline, for the capsule kernels.
inline SegmentPoints ClosestPointsSegmentsInline(const Vec3& p1, const Vec3& q1, const Vec3& p2,
                                                 const Vec3& q2) {
  const Vec3 d1 = q1 - p1;
  const Vec3 d2 = q2 - p2;
  const Vec3 r = p2 - p1;
  const double a = Dot(d1, d1);
  const double e = Dot(d2, d2);
  // Computed before the branches (which are predictable: a degenerate or
  // parallel pair is rare), so that a capsule kernel inlining this shares
  // them with its normal's computation (SeparationOfSegments).
  const double b = Dot(d1, d2);
  const double c = Dot(r, d1);  // a * (parameter of p2 on line 1).
  const double f = Dot(r, d2);
  const Vec3 n = Cross(d1, d2);
  const double nn = Dot(n, n);
  double s = 0.0;
  double t = 0.0;
  if (a == 0.0) [[unlikely]] {
    t = ClampedSegmentParameter(-r, d2, e);  // p1 against segment 2 (t = 0 if also a point).
  } else if (e == 0.0) [[unlikely]] {
    s = ClampedSegmentParameter(r, d1, a);  // p2 against segment 1.
  } else {
    if (nn > kParallelSinSquared * a * e) [[likely]] {
      s = Clamp01(CommonPerpendicularNumerator(r, d2, n) / nn);
    } else {
      // Parallel: segment 2 projects onto line 1 as [u0, u1] (in s units).
      // Overlapping [0, 1]: every s in the overlap has a perpendicular
      // partner; take the midpoint. Disjoint: the end of segment 1 facing it.
      const double u0 = c / a;
      const double u1 = (c + b) / a;
      const double lo = u0 < u1 ? u0 : u1;
      const double hi = u0 < u1 ? u1 : u0;
      const double overlap_lo = lo > 0.0 ? lo : 0.0;
      const double overlap_hi = hi < 1.0 ? hi : 1.0;
      s = overlap_lo <= overlap_hi ? 0.5 * (overlap_lo + overlap_hi) : (hi < 0.0 ? 0.0 : 1.0);
    }
    // Project p1 + s*d1 onto line 2: t = ((s*d1 - r) . d2) / e; clamp, and
    // if t left [0, 1], reproject p2 + t*d2 onto segment 1: for t = 0 the
    // parameter c / a, for t = 1 (c + b) / a. Both are formed from the dot
    // products alone, in parallel with the divisions above, so that the
    // dependent chain holds two divisions rather than three: the capsule
    // kernels' time is mostly that chain's (docs/performance.md, "Pair
    // kernels"), and the values are those of
    // (c + t * b) / a at t = 0 and 1 bit for bit. Clamp01(num / den) is
    // ClampedRatio(num, den) for den > 0.
    const double s_at_t0 = Clamp01(c / a);
    const double s_at_t1 = Clamp01((c + b) / a);
    const double t_num = s * b - f;
    t = Clamp01(t_num / e);
    s = Select(Less(t_num, 0.0), s_at_t0, Select(Less(e, t_num), s_at_t1, s));
  }
  return {s, t, p1 + d1 * s, p2 + d2 * t};
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_SEGMENTS_H_
