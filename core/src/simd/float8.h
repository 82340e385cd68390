// Eight float lanes in two SSE2 registers: one lane per child of an 8-wide
// BVH node. AVX2 would need a run-time dispatch and the upper register
// halves cleared before every leaf, for a gain within the noise of
// mesh_bench (docs/performance.md, "Mesh rays").
#ifndef COLLIDE_CORE_SRC_SIMD_FLOAT8_H_
#define COLLIDE_CORE_SRC_SIMD_FLOAT8_H_

#include "simd/sse2.h"

namespace collide::internal {

struct Float8 {
  __m128 a, b;  // lanes 0-3, 4-7.
};

// p 16-byte aligned.
inline Float8 Load8(const float* p) { return {_mm_load_ps(p), _mm_load_ps(p + 4)}; }
inline void Store8(float* p, Float8 x) { _mm_storeu_ps(p, x.a), _mm_storeu_ps(p + 4, x.b); }
inline Float8 Splat8(float x) { return {_mm_set1_ps(x), _mm_set1_ps(x)}; }
inline Float8 operator+(Float8 x, Float8 y) { return {_mm_add_ps(x.a, y.a), _mm_add_ps(x.b, y.b)}; }
inline Float8 operator-(Float8 x, Float8 y) { return {_mm_sub_ps(x.a, y.a), _mm_sub_ps(x.b, y.b)}; }
inline Float8 operator*(Float8 x, Float8 y) { return {_mm_mul_ps(x.a, y.a), _mm_mul_ps(x.b, y.b)}; }
// x < y ? x : y and x > y ? x : y, lane by lane (y on equality or NaN).
inline Float8 Min(Float8 x, Float8 y) { return {_mm_min_ps(x.a, y.a), _mm_min_ps(x.b, y.b)}; }
inline Float8 Max(Float8 x, Float8 y) { return {_mm_max_ps(x.a, y.a), _mm_max_ps(x.b, y.b)}; }
// Comparisons: a lane all ones where true, zeros where false (false for NaN).
inline Float8 operator<=(Float8 x, Float8 y) { return {_mm_cmple_ps(x.a, y.a), _mm_cmple_ps(x.b, y.b)}; }
inline Float8 operator>=(Float8 x, Float8 y) { return {_mm_cmpge_ps(x.a, y.a), _mm_cmpge_ps(x.b, y.b)}; }
inline Float8 operator&(Float8 x, Float8 y) { return {_mm_and_ps(x.a, y.a), _mm_and_ps(x.b, y.b)}; }
// Bit i set when lane i of the mask is.
inline int MoveMask(Float8 mask) { return _mm_movemask_ps(mask.a) | _mm_movemask_ps(mask.b) << 4; }

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_FLOAT8_H_
