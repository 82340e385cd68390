// The instruction set the core is written for: SSE2, the x86-64 baseline
// (the project builds without -march). The named operations of this folder
// are the only place that spells SSE2 intrinsics; the kernels use them.
#ifndef COLLIDE_CORE_SRC_SIMD_SSE2_H_
#define COLLIDE_CORE_SRC_SIMD_SSE2_H_

#if !defined(__SSE2__)
#error "collide's core requires SSE2 (x86-64); docs/architecture.md lists the supported targets"
#endif

#include <emmintrin.h>

namespace collide::internal {

// x in the low lane of a register, the high lane unspecified. _mm_set_sd
// zeroes the high lane, and GCC spends a movq on that before every use (on
// the capsule kernels' dependent chain); the empty asm tells GCC the register
// already holds the value. Clang, which rejects the tied operands of
// different types, keeps _mm_set_sd.
inline __m128d InLowLane(double x) {
#if defined(__GNUC__) && !defined(__clang__)
  __m128d v;
  asm("" : "=x"(v) : "0"(x));
  return v;
#else
  return _mm_set_sd(x);
#endif
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_SSE2_H_
