// Happens-before annotations for ThreadSanitizer at the points where gRPC,
// not our code, orders two accesses. Debian's gRPC is not built with TSan, so
// the synchronisation inside libgrpc (its completion queues, combiners and
// executors) is invisible to it; where our code hands an object to gRPC on one
// thread and gets it back on another, a TsanRelease before the handoff and a
// TsanAcquire after it state the ordering gRPC guarantees. Each call site says
// which guarantee it stands for. Without -fsanitize=thread both are no-ops.
#ifndef COLLIDE_SERVER_TSAN_ANNOTATIONS_H_
#define COLLIDE_SERVER_TSAN_ANNOTATIONS_H_

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define COLLIDE_TSAN 1
#endif
#endif
#if !defined(COLLIDE_TSAN) && defined(__SANITIZE_THREAD__)
#define COLLIDE_TSAN 1
#endif

#ifdef COLLIDE_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace collide::server {

// Everything this thread did before TsanRelease(p) happens before everything
// a thread does after a later TsanAcquire(p).
inline void TsanRelease([[maybe_unused]] const void* p) {
#ifdef COLLIDE_TSAN
  __tsan_release(const_cast<void*>(p));
#endif
}
inline void TsanAcquire([[maybe_unused]] const void* p) {
#ifdef COLLIDE_TSAN
  __tsan_acquire(const_cast<void*>(p));
#endif
}

}  // namespace collide::server

#endif  // COLLIDE_SERVER_TSAN_ANNOTATIONS_H_
