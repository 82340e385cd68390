// Branch-free selection, for decisions that depend on the data in a way no
// branch predictor learns (a box's side of another, the least axis so far,
// the clamps of closest points on random pairs). GCC compiles a ?: on
// doubles to a jump and threads the known values through it; these compile
// to masks instead, and give the ?: forms' values bit for bit.
//
// Two kinds of condition, one family of names:
// - a Choice, the outcome of a comparison of doubles kept as an SSE2 mask
//   (Less, LessOrEqual, &, |): the selection is and/andnot/or in the same
//   registers as the values;
// - a bool, when the condition is already in an integer register (an index
//   comparison, a flag): the selection is integer xor/and on the bits.
#ifndef COLLIDE_CORE_SRC_SIMD_SELECT_H_
#define COLLIDE_CORE_SRC_SIMD_SELECT_H_

#include <bit>
#include <cstdint>

#include "collide/math.h"
#include "simd/sse2.h"

namespace collide::internal {

struct Choice {
  __m128d mask;  // low lane all ones (true) or all zeros (false).
};
// x < y, x <= y (false when either is NaN).
inline Choice Less(double x, double y) { return {_mm_cmplt_sd(InLowLane(x), InLowLane(y))}; }
inline Choice LessOrEqual(double x, double y) { return {_mm_cmple_sd(InLowLane(x), InLowLane(y))}; }
inline Choice operator|(Choice a, Choice b) { return {_mm_or_pd(a.mask, b.mask)}; }
inline Choice operator&(Choice a, Choice b) { return {_mm_and_pd(a.mask, b.mask)}; }

// c ? x : y.
inline double Select(Choice c, double x, double y) {
  return _mm_cvtsd_f64(_mm_or_pd(_mm_and_pd(c.mask, InLowLane(x)), _mm_andnot_pd(c.mask, InLowLane(y))));
}
inline Vec3 Select(Choice c, const Vec3& x, const Vec3& y) {
  return {Select(c, x.x, y.x), Select(c, x.y, y.y), Select(c, x.z, y.z)};
}
constexpr int Select(bool c, int x, int y) { return y ^ ((x ^ y) & -static_cast<int>(c)); }
constexpr double Select(bool c, double x, double y) {
  const std::uint64_t ux = std::bit_cast<std::uint64_t>(x), uy = std::bit_cast<std::uint64_t>(y);
  return std::bit_cast<double>(uy ^ ((ux ^ uy) & -std::uint64_t{c}));
}

// c ? +0.0 : x.
inline double ZeroIf(Choice c, double x) { return _mm_cvtsd_f64(_mm_andnot_pd(c.mask, InLowLane(x))); }
constexpr double ZeroIf(bool c, double x) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) & (std::uint64_t{c} - 1));
}

// c ? -x : x (the sign flip of unary minus).
constexpr double NegatedIf(bool c, double x) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) ^ (std::uint64_t{c} << 63));
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_SELECT_H_
