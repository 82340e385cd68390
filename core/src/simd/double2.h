// Two double lanes in one SSE2 register: two box axes or two triangles per
// operation. Every operation is the IEEE double operation lane by lane
// (correctly rounded), so a kernel written on Double2 gives bit for bit the
// values of its scalar form when it keeps the scalar order of operations.
#ifndef COLLIDE_CORE_SRC_SIMD_DOUBLE2_H_
#define COLLIDE_CORE_SRC_SIMD_DOUBLE2_H_

#include "simd/sse2.h"

namespace collide::internal {

struct Double2 {
  __m128d v;
};

// {x, x}.
inline Double2 Splat2(double x) { return {_mm_set1_pd(x)}; }
// {lo, hi}.
inline Double2 Pair(double lo, double hi) { return {_mm_set_pd(hi, lo)}; }
inline Double2 Zero2() { return {_mm_setzero_pd()}; }
// {p[0], p[1]} as two 8-byte loads, which GCC may merge or combine with the
// gathers around them as it sees fit; a 16-byte load (_mm_loadu_pd) of
// values written 8 bytes at a time waits for both stores to reach the cache
// (60 more instructions per OBB-OBB contact pair in pair_bench).
inline Double2 LoadPair(const double* p) { return {_mm_loadh_pd(_mm_load_sd(p), p + 1)}; }
// {*lo, *hi}, two 8-byte loads.
inline Double2 Gather(const double* lo, const double* hi) { return {_mm_loadh_pd(_mm_load_sd(lo), hi)}; }

// p[0] = lo, p[1] = hi (one 16-byte store); *p = lo; *p = hi.
inline void Store(double* p, Double2 x) { _mm_storeu_pd(p, x.v); }
inline void StoreLow(double* p, Double2 x) { _mm_storel_pd(p, x.v); }
inline void StoreHigh(double* p, Double2 x) { _mm_storeh_pd(p, x.v); }
inline double Low(Double2 x) { return _mm_cvtsd_f64(x.v); }
// {hi, hi}.
inline Double2 HighInBoth(Double2 x) { return {_mm_unpackhi_pd(x.v, x.v)}; }

inline Double2 operator+(Double2 x, Double2 y) { return {_mm_add_pd(x.v, y.v)}; }
inline Double2 operator-(Double2 x, Double2 y) { return {_mm_sub_pd(x.v, y.v)}; }
inline Double2 operator*(Double2 x, Double2 y) { return {_mm_mul_pd(x.v, y.v)}; }
inline Double2 operator/(Double2 x, Double2 y) { return {_mm_div_pd(x.v, y.v)}; }
// -x (the sign bit flipped).
inline Double2 operator-(Double2 x) { return {_mm_xor_pd(x.v, _mm_set1_pd(-0.0))}; }
inline Double2 Sqrt(Double2 x) { return {_mm_sqrt_pd(x.v)}; }
// |x| (the sign bit cleared).
inline Double2 Abs(Double2 x) {
  return {_mm_and_pd(x.v, _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff)))};
}
// x < y ? x : y and x > y ? x : y, lane by lane (y on equality or NaN).
inline Double2 Min(Double2 x, Double2 y) { return {_mm_min_pd(x.v, y.v)}; }
inline Double2 Max(Double2 x, Double2 y) { return {_mm_max_pd(x.v, y.v)}; }
// Low lane: Min(low x, low y); high lane: x's.
inline Double2 MinLow(Double2 x, Double2 y) { return {_mm_min_sd(x.v, y.v)}; }
inline Double2 AddLow(Double2 x, Double2 y) { return {_mm_add_sd(x.v, y.v)}; }

// Comparisons: a lane all ones where true, all zeros where false (false for
// NaN), to combine with &, | and to use in Select, ZeroIf and MoveMask.
inline Double2 operator<(Double2 x, Double2 y) { return {_mm_cmplt_pd(x.v, y.v)}; }
inline Double2 operator>(Double2 x, Double2 y) { return {_mm_cmpgt_pd(x.v, y.v)}; }
inline Double2 operator>=(Double2 x, Double2 y) { return {_mm_cmpge_pd(x.v, y.v)}; }
inline Double2 operator==(Double2 x, Double2 y) { return {_mm_cmpeq_pd(x.v, y.v)}; }
inline Double2 operator&(Double2 x, Double2 y) { return {_mm_and_pd(x.v, y.v)}; }
inline Double2 operator|(Double2 x, Double2 y) { return {_mm_or_pd(x.v, y.v)}; }
// mask ? x : y, lane by lane.
inline Double2 Select(Double2 mask, Double2 x, Double2 y) {
  return {_mm_or_pd(_mm_and_pd(mask.v, x.v), _mm_andnot_pd(mask.v, y.v))};
}
// mask ? +0.0 : x, lane by lane.
inline Double2 ZeroIf(Double2 mask, Double2 x) { return {_mm_andnot_pd(mask.v, x.v)}; }
// Bit i set when lane i of the mask is (bit 0: low lane).
inline int MoveMask(Double2 mask) { return _mm_movemask_pd(mask.v); }

// Counts the true lanes of masks, two 64-bit counters summed at the end (a
// true lane is all ones, -1: subtracting it counts one).
class LaneCount {
 public:
  void Add(Double2 mask) { n_ = _mm_sub_epi64(n_, _mm_castpd_si128(mask.v)); }
  int Total() const {
    return static_cast<int>(_mm_cvtsi128_si64(_mm_add_epi64(n_, _mm_unpackhi_epi64(n_, n_))));
  }

 private:
  __m128i n_ = _mm_setzero_si128();
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_DOUBLE2_H_
