// Starting a load into the L1 cache ahead of its use.
#ifndef COLLIDE_CORE_SRC_SIMD_PREFETCH_H_
#define COLLIDE_CORE_SRC_SIMD_PREFETCH_H_

#include "simd/sse2.h"

namespace collide::internal {

// The cache line holding p.
inline void Prefetch(const void* p) { _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T0); }

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_SIMD_PREFETCH_H_
