// Closest-point building blocks on points, lines and segments, shared by the
// kernels. Every function is exact up to round-off for valid (finite) input
// and never divides by zero: zero-length segments are points.
//
// Segments are given by endpoints and parametrized p + s * (q - p), s in
// [0, 1]; lines by a point and a non-zero direction, p + s * d.
#ifndef COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_H_
#define COLLIDE_CORE_SRC_QUERY_CLOSEST_CLOSEST_H_

#include <algorithm>
#include <cmath>
#include <limits>

#include "collide/math.h"
#include "collide/shapes.h"
#include "simd/scalar.h"
#include "simd/select.h"

namespace collide::internal {

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
