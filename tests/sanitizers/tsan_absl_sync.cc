// Makes Debian's absl::Mutex and absl::CondVar visible to ThreadSanitizer.
//
// Debian's Abseil is built without -fsanitize=thread, so absl::Mutex (a
// futex and atomics inside libabsl_synchronization) orders nothing as far as
// TSan can tell. gRPC 1.51 locks its own state with it (grpc_core::Mutex in
// libgrpc, grpc::internal::Mutex in the grpcpp headers, e.g. the reactors'
// stream_mu_), so every access that gRPC orders with a lock showed up as a
// race. scripts/sanitize.sh preloads this library (LD_PRELOAD) into the TSan
// test binaries and the servers they start: its definitions of the Mutex and
// CondVar entry points that gRPC and our binaries call come first in symbol
// lookup, call the real ones (dlsym RTLD_NEXT) and state the ordering a
// mutex gives: __tsan_acquire after a lock is taken, __tsan_release before it
// is let go (Abseil does the same inside when built with TSan:
// ABSL_TSAN_MUTEX_* in absl/synchronization/mutex.cc). This only adds
// happens-before edges that the lock really makes; it hides no access.
// Reader locks are treated as exclusive ones (an edge from one reader to the
// next, which the lock does not make: a race between two readers under the
// same reader lock would go unseen; gRPC 1.51 takes no reader locks).
//
// Built without TSan instrumentation; the __tsan_* entry points come from the
// TSan runtime in the executable, and without one (a process that is not a
// TSan build) the wrappers only forward.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/base/config.h"
#include "absl/base/macros.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

extern "C" void __tsan_acquire(void* addr) __attribute__((weak));
extern "C" void __tsan_release(void* addr) __attribute__((weak));

namespace {

void Acquire(const void* p) {
  if (__tsan_acquire != nullptr) __tsan_acquire(const_cast<void*>(p));
}
void Release(const void* p) {
  if (__tsan_release != nullptr) __tsan_release(const_cast<void*>(p));
}

// The real function's address, from the library after this one in lookup
// order. `rest` is the mangled name after the namespace prefix, written with
// the inline namespace's substitution (NS0_) where a parameter names an absl
// type.
template <typename Fn>
Fn Real(const char* rest) {
#if ABSL_OPTION_USE_INLINE_NAMESPACE
  const std::string ns = ABSL_INTERNAL_TOKEN_STR(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  const std::string name = "_ZN4absl" + std::to_string(ns.size()) + ns + rest;
#else
#error "tsan_absl_sync.cc expects Abseil's inline namespace (Debian's: debian3)"
#endif
  void* fn = dlsym(RTLD_NEXT, name.c_str());
  if (fn == nullptr) {
    std::fprintf(stderr, "tsan_absl_sync: %s not found\n", name.c_str());
    std::abort();
  }
  return reinterpret_cast<Fn>(fn);
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

void Mutex::Lock() {
  static const auto real = Real<void (*)(Mutex*)>("5Mutex4LockEv");
  real(this);
  Acquire(this);
}

void Mutex::ReaderLock() {
  static const auto real = Real<void (*)(Mutex*)>("5Mutex10ReaderLockEv");
  real(this);
  Acquire(this);
}

bool Mutex::TryLock() {
  static const auto real = Real<bool (*)(Mutex*)>("5Mutex7TryLockEv");
  const bool locked = real(this);
  if (locked) Acquire(this);
  return locked;
}

bool Mutex::ReaderTryLock() {
  static const auto real = Real<bool (*)(Mutex*)>("5Mutex13ReaderTryLockEv");
  const bool locked = real(this);
  if (locked) Acquire(this);
  return locked;
}

void Mutex::LockWhen(const Condition& cond) {
  static const auto real = Real<void (*)(Mutex*, const Condition&)>("5Mutex8LockWhenERKNS0_9ConditionE");
  real(this, cond);
  Acquire(this);
}

void Mutex::Unlock() {
  static const auto real = Real<void (*)(Mutex*)>("5Mutex6UnlockEv");
  Release(this);
  real(this);
}

void Mutex::ReaderUnlock() {
  static const auto real = Real<void (*)(Mutex*)>("5Mutex12ReaderUnlockEv");
  Release(this);
  real(this);
}

// Await and the CondVar waits let the mutex go and take it again inside.
void Mutex::Await(const Condition& cond) {
  static const auto real = Real<void (*)(Mutex*, const Condition&)>("5Mutex5AwaitERKNS0_9ConditionE");
  Release(this);
  real(this, cond);
  Acquire(this);
}

void CondVar::Wait(Mutex* mu) {
  static const auto real = Real<void (*)(CondVar*, Mutex*)>("7CondVar4WaitEPNS0_5MutexE");
  Release(mu);
  real(this, mu);
  Acquire(mu);
}

bool CondVar::WaitWithTimeout(Mutex* mu, Duration timeout) {
  static const auto real =
      Real<bool (*)(CondVar*, Mutex*, Duration)>("7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  Release(mu);
  const bool timed_out = real(this, mu, timeout);
  Acquire(mu);
  return timed_out;
}

bool CondVar::WaitWithDeadline(Mutex* mu, Time deadline) {
  static const auto real =
      Real<bool (*)(CondVar*, Mutex*, Time)>("7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  Release(mu);
  const bool timed_out = real(this, mu, deadline);
  Acquire(mu);
  return timed_out;
}

ABSL_NAMESPACE_END
}  // namespace absl
