// A brute-force reference for segment distances, in long double, for the
// round-family tests: independent of the library's closest-point code.
#ifndef COLLIDE_TESTS_CORE_SEGMENT_REFERENCE_H_
#define COLLIDE_TESTS_CORE_SEGMENT_REFERENCE_H_

#include <algorithm>
#include <cmath>

#include "collide/math.h"

namespace collide::testing {

// Reference distance between segments [p1, q1] and [p2, q2] in long double:
// the minimum of the four endpoint-against-segment distances and, when the
// lines' closest parameters are both in [0, 1], the line-line distance. The
// minimum of a convex quadratic over the square is at the interior stationary
// point or on an edge, and on an edge it is a point-segment problem.
inline long double RefPointSegment(const Vec3& p, const Vec3& a, const Vec3& b) {
  long double d[3], w[3];
  for (int i = 0; i < 3; ++i) {
    d[i] = static_cast<long double>(b[i]) - a[i];
    w[i] = static_cast<long double>(p[i]) - a[i];
  }
  const long double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  long double t = dd > 0 ? (w[0] * d[0] + w[1] * d[1] + w[2] * d[2]) / dd : 0;
  t = std::clamp(t, 0.0L, 1.0L);
  long double s = 0;
  for (int i = 0; i < 3; ++i) s += (w[i] - t * d[i]) * (w[i] - t * d[i]);
  return std::sqrt(s);
}

inline long double RefSegmentSegment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  long double best = std::min({RefPointSegment(p1, p2, q2), RefPointSegment(q1, p2, q2),
                               RefPointSegment(p2, p1, q1), RefPointSegment(q2, p1, q1)});
  long double d1[3], d2[3], r[3];
  for (int i = 0; i < 3; ++i) {
    d1[i] = static_cast<long double>(q1[i]) - p1[i];
    d2[i] = static_cast<long double>(q2[i]) - p2[i];
    r[i] = static_cast<long double>(p1[i]) - p2[i];
  }
  auto dot = [](const long double* x, const long double* y) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  };
  const long double a = dot(d1, d1), b = dot(d1, d2), c = dot(d1, r), e = dot(d2, d2), f = dot(d2, r);
  const long double den = a * e - b * b;
  if (den > 1e-30L * a * e) {
    const long double s = (b * f - c * e) / den;
    const long double t = (a * f - b * c) / den;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
      long double sum = 0;
      for (int i = 0; i < 3; ++i) {
        const long double x = r[i] + s * d1[i] - t * d2[i];
        sum += x * x;
      }
      best = std::min(best, std::sqrt(sum));
    }
  }
  return best;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_CORE_SEGMENT_REFERENCE_H_
