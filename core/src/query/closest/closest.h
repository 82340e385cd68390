// Closest-point building blocks on points, lines and segments, shared by the
// kernels. Every function is exact up to round-off for valid (finite) input
// and never divides by zero: zero-length segments are points.
//
// Segments are given by endpoints and parametrized p + s * (q - p), s in
// [0, 1]; lines by a point and a non-zero direction, p + s * d.
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_H_

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::internal {

// Branch-free choices, for decisions that depend on the data in a way no
// branch predictor learns (ClosestPointsSegments: on random pairs each
// outcome of its clamps is common). GCC compiles a ?: on doubles to a jump,
// and threads the known values through it, so on x86-64 these are SSE2 (the
// baseline) compare masks, min/max and and/andnot/or. A Choice is the
// outcome of a comparison.
#if defined(__SSE2__)
// x in the low lane of a register, the high lane unspecified. _mm_set_sd
// zeroes the high lane, and GCC spends a movq on that before every use (on
// the capsule kernels' dependent chain); the empty asm tells GCC the register already
// holds the value. Clang, which rejects the tied operands of different
// types, keeps _mm_set_sd.
inline __m128d InLowLane(double x) {
#if defined(__GNUC__) && !defined(__clang__)
  __m128d v;
  asm("" : "=x"(v) : "0"(x));
  return v;
#else
  return _mm_set_sd(x);
#endif
}
struct Choice {
  __m128d mask;  // low lane all ones (true) or all zeros (false).
};
inline Choice Less(double x, double y) { return {_mm_cmplt_sd(InLowLane(x), InLowLane(y))}; }
inline Choice LessOrEqual(double x, double y) { return {_mm_cmple_sd(InLowLane(x), InLowLane(y))}; }
// c ? +0.0 : x.
inline double AndNot(Choice c, double x) { return _mm_cvtsd_f64(_mm_andnot_pd(c.mask, InLowLane(x))); }
inline Choice operator|(Choice a, Choice b) { return {_mm_or_pd(a.mask, b.mask)}; }
inline Choice operator&(Choice a, Choice b) { return {_mm_and_pd(a.mask, b.mask)}; }
// c ? x : y.
inline double Select(Choice c, double x, double y) {
  return _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(c.mask, InLowLane(x)), _mm_andnot_pd(c.mask, InLowLane(y))));
}
// Max and Min as one maxsd or minsd in every context: GCC can compile the
// plain ?: forms to a jump (it did in DistanceFromSeparation, where the
// comparison depends on a square root and went either way on a fifth of the
// random capsule pairs).
inline double MaxsdOf(double x, double y) { return _mm_cvtsd_f64(_mm_max_sd(InLowLane(x), InLowLane(y))); }
inline double MinsdOf(double x, double y) { return _mm_cvtsd_f64(_mm_min_sd(InLowLane(x), InLowLane(y))); }
// x clamped to [0, 1] by maxsd/minsd: 0 for x <= 0 (also -0 and NaN), 1 for
// x >= 1.
inline double Clamp01(double x) {
  return _mm_cvtsd_f64(_mm_min_sd(_mm_max_sd(InLowLane(x), _mm_setzero_pd()), _mm_set_sd(1.0)));
}
#else
struct Choice {
  bool value;
};
inline Choice Less(double x, double y) { return {x < y}; }
inline Choice LessOrEqual(double x, double y) { return {x <= y}; }
inline double AndNot(Choice c, double x) { return c.value ? 0.0 : x; }
inline Choice operator|(Choice a, Choice b) { return {a.value || b.value}; }
inline Choice operator&(Choice a, Choice b) { return {a.value && b.value}; }
inline double Select(Choice c, double x, double y) { return c.value ? x : y; }
inline double MaxsdOf(double x, double y) { return x > y ? x : y; }
inline double MinsdOf(double x, double y) { return x < y ? x : y; }
inline double Clamp01(double x) {
  x = 0.0 < x ? x : 0.0;
  return x < 1.0 ? x : 1.0;
}
#endif
// c ? x : y, componentwise.
inline Vec3 Select(Choice c, const Vec3& x, const Vec3& y) {
  return {Select(c, x.x, y.x), Select(c, x.y, y.y), Select(c, x.z, y.z)};
}
// x < y ? x : y and x > y ? x : y (GCC: one minsd or maxsd, which have
// exactly these semantics, NaN included).
inline double Min(double x, double y) { return x < y ? x : y; }
inline double Max(double x, double y) { return x > y ? x : y; }
// sqrt(x) for x >= 0 without std::sqrt's errno path: a call that GCC must
// assume writes memory, so values loaded before it are loaded again after.
inline double SqrtNonNegative(double x) {
#if defined(__SSE2__)
  const __m128d v = InLowLane(x);
  return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
#else
  return std::sqrt(x);
#endif
}

// LengthAndUnitOf (math.h) with the same values, for kernels whose time is
// its latency: the square root as SqrtNonNegative and the rescaling of a
// squared length outside the normal doubles out of line. With std::sqrt
// inline, GCC keeps values in memory around its errno call: the
// sphere-triangle contact kernel took ~2 ns more per pair (51 against 49).
[[gnu::cold, gnu::noinline]] inline LengthAndUnit LengthAndUnitRescaled(Vec3 v, double v2) {
  return LengthAndUnitOf(v, v2);
}
inline LengthAndUnit LengthAndUnitOfHot(const Vec3& v, double v2) {
  if (v2 >= std::numeric_limits<double>::min() && v2 <= std::numeric_limits<double>::max()) [[likely]] {
    const double d = SqrtNonNegative(v2);
    return {d, v * (1.0 / d)};
  }
  return LengthAndUnitRescaled(v, v2);
}

// Two directions count as parallel when sin^2 of their angle is at most this.
// Below it the common perpendicular is not computed (its foot is undefined
// for exactly parallel lines); the parallel branches are then exact to within
// sin(angle) * length <= 1e-14 * length, while the skew branch stays accurate
// (to ~1e-16 * distance scale) at every larger angle, so the threshold only
// decides which of two equally good answers is reported. It is large enough
// that segments made collinear by rounding (sin^2 ~ 1e-32) take the
// deterministic parallel answer.
inline constexpr double kParallelSinSquared = 1e-28;

// num / den clamped to [0, 1], for den >= 0. The clamps are decided before
// dividing: cheaper when clamped, and den == 0 gives 0, never NaN.
inline double ClampedRatio(double num, double den) {
  if (num <= 0.0) return 0.0;
  if (num >= den) return 1.0;
  return num / den;
}

// The parameter in [0, 1] of the point of segment [a, a + d] closest to a
// point at offset `ap` from `a`, with dd = |d|^2 (0 for a point segment).
inline double ClampedSegmentParameter(const Vec3& ap, const Vec3& d, double dd) {
  return ClampedRatio(Dot(ap, d), dd);
}

struct PointOnSegment {
  double t = 0.0;  // parameter in [0, 1] along [a, b].
  Vec3 point;      // a + t * (b - a).
};

// Closest point of segment [a, b] to p (orthogonal projection, clamped).
inline PointOnSegment ClosestPointOnSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 d = b - a;
  const double t = ClampedSegmentParameter(p - a, d, Dot(d, d));
  return {t, a + d * t};
}

struct PointOnLine {
  double t = 0.0;  // parameter along the line: point = line.point + t * direction.
  Vec3 point;
};

// Closest point of `line` to p (orthogonal projection). line.direction must
// be non-zero.
inline PointOnLine ClosestPointOnLine(const Vec3& p, const Line& line) {
  const double t = Dot(p - line.point, line.direction) / Dot(line.direction, line.direction);
  return {t, line.point + line.direction * t};
}

// The parameter s of the foot, on the line p1 + s * d1, of the common
// perpendicular with the line p1 + r + t * d2, given n = d1 x d2 != 0, is
// this numerator over |n|^2. The foot on the second line is t = the same with
// d1 for d2 (same r and n).
//
// From s*d1 - t*d2 = r + k*n: crossing with d2 and dotting with n gives
// s*|n|^2 = ((r x d2) . n) (with d1: t*|n|^2 = (r x d1) . n). This
// cross-product form avoids the cancellation in Ericson's
// (b*f - c*e) / (a*e - b*b): its error is ~eps*|r|/(|d1| sin) instead of
// ~eps*|r|/(|d1| sin^2), so the distance it yields stays accurate to
// ~eps*|r| however small the angle.
inline double CommonPerpendicularNumerator(const Vec3& r, const Vec3& d2, const Vec3& n) {
  return Dot(Cross(r, d2), n);
}

struct LinePoints {
  double s = 0.0;  // on line 1: point1 = l1.point + s * l1.direction.
  double t = 0.0;  // on line 2.
  Vec3 point1;
  Vec3 point2;
  bool parallel = false;  // sin^2(angle) <= kParallelSinSquared.
};

// Closest points of two lines (directions non-zero). Skew lines: the feet of
// the common perpendicular. Parallel lines, where every point of line 1 has a
// closest partner: s = 0 (l1.point) and its projection on line 2.
LinePoints ClosestPointsLines(const Line& l1, const Line& l2);

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_H_
