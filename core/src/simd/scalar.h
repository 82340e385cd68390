// Min, max, clamps and the square root of one double. Min, Max and Clamp are
// the plain comparisons, which the compiler may compile to branches (cheaper
// where the outcome is predictable); the BranchFree forms are one minsd or
// maxsd in every context, for outcomes that go either way on random input
// (GCC compiled a ?: max to a jump in DistanceFromSeparation, where the
// comparison depends on a square root and went either way on a fifth of the
// random capsule pairs). Each pair gives the same values, NaN and signed
// zeros included.
#ifndef COLLIDE_CORE_SRC_SIMD_SCALAR_H_
#define COLLIDE_CORE_SRC_SIMD_SCALAR_H_

#include "collide/math.h"
#include "simd/sse2.h"

namespace collide::internal {

// x < y ? x : y and x > y ? x : y (the second operand on equality or NaN).
constexpr double Min(double x, double y) { return x < y ? x : y; }
constexpr double Max(double x, double y) { return x > y ? x : y; }
// The same as one minsd and one maxsd, which have exactly these semantics.
inline double MinBranchFree(double x, double y) {
  return _mm_cvtsd_f64(_mm_min_sd(InLowLane(x), InLowLane(y)));
}
inline double MaxBranchFree(double x, double y) {
  return _mm_cvtsd_f64(_mm_max_sd(InLowLane(x), InLowLane(y)));
}

// x < lo ? lo : (x > hi ? hi : x), per coordinate for Vec3, for lo <= hi.
// Where the side is predictable branches are cheaper (sphere-box kernels: 2x
// the instructions with ClampBranchFree).
constexpr double Clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
constexpr Vec3 Clamp(const Vec3& p, const Vec3& lo, const Vec3& hi) {
  return {Clamp(p.x, lo.x, hi.x), Clamp(p.y, lo.y, hi.y), Clamp(p.z, lo.z, hi.z)};
}
// Clamp's values (also for -0 and NaN) as MaxBranchFree(lo, MinBranchFree(hi,
// x)), for points that fall on either side of the faces at random (box-box
// certificates).
inline Vec3 ClampBranchFree(const Vec3& p, const Vec3& lo, const Vec3& hi) {
  const auto clamp = [](double x, double l, double h) { return MaxBranchFree(l, MinBranchFree(h, x)); };
  return {clamp(p.x, lo.x, hi.x), clamp(p.y, lo.y, hi.y), clamp(p.z, lo.z, hi.z)};
}
// MinBranchFree(MaxBranchFree(x, 0), 1): 0 for x <= 0 (also -0 and NaN), 1
// for x >= 1.
inline double Clamp01(double x) {
  return _mm_cvtsd_f64(_mm_min_sd(_mm_max_sd(InLowLane(x), _mm_setzero_pd()), _mm_set_sd(1.0)));
}

// sqrt(x) for x >= 0 without std::sqrt's errno path: a call that GCC must
// assume writes memory, so values loaded before it are loaded again after.
inline double SqrtNonNegative(double x) {
  const __m128d v = InLowLane(x);
  return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_SCALAR_H_
