// Four float lanes in one SSE2 register, x, y, z and an unused w: the BVH
// build's boxes and centroids.
#ifndef COLLIDE_CORE_SRC_SIMD_FLOAT4_H_
#define COLLIDE_CORE_SRC_SIMD_FLOAT4_H_

#include <cstdint>

#include "simd/sse2.h"

namespace collide::internal {

struct Float4 {
  __m128 v;
};

inline Float4 Splat4(float x) { return {_mm_set1_ps(x)}; }
inline Float4 Zero4() { return {_mm_setzero_ps()}; }
// p 16-byte aligned.
inline Float4 LoadAligned(const float* p) { return {_mm_load_ps(p)}; }
inline void StoreAligned(float* p, Float4 x) { _mm_store_ps(p, x.v); }
inline float X(Float4 x) { return _mm_cvtss_f32(x.v); }

inline Float4 operator+(Float4 x, Float4 y) { return {_mm_add_ps(x.v, y.v)}; }
inline Float4 operator-(Float4 x, Float4 y) { return {_mm_sub_ps(x.v, y.v)}; }
inline Float4 operator*(Float4 x, Float4 y) { return {_mm_mul_ps(x.v, y.v)}; }
// x < y ? x : y and x > y ? x : y, lane by lane (y on equality or NaN).
inline Float4 Min(Float4 x, Float4 y) { return {_mm_min_ps(x.v, y.v)}; }
inline Float4 Max(Float4 x, Float4 y) { return {_mm_max_ps(x.v, y.v)}; }

// {y, z, x, w}.
inline Float4 RotateXYZ(Float4 x) { return {_mm_shuffle_ps(x.v, x.v, _MM_SHUFFLE(3, 0, 2, 1))}; }
// (x + y) + z.
inline float SumXYZ(Float4 p) {
  return _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(p.v, _mm_shuffle_ps(p.v, p.v, 1)), _mm_movehl_ps(p.v, p.v)));
}
// Each lane truncated toward zero to an int32 (lanes in int32 range), into
// out[0..3], out 16-byte aligned.
inline void TruncateToInt32(Float4 x, std::int32_t* out) {
  _mm_store_si128(reinterpret_cast<__m128i*>(out), _mm_cvttps_epi32(x.v));
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_FLOAT4_H_
