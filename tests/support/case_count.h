// How many seeded cases a large randomized test runs. Release builds run the
// full count; sanitizer builds (scripts/sanitize.sh, about 5-20x slower) run
// a fraction so that the whole suite fits CI's time budget while every code
// path still runs: the full counts are what the Release stage asserts.
#ifndef COLLIDE_TESTS_SUPPORT_CASE_COUNT_H_
#define COLLIDE_TESTS_SUPPORT_CASE_COUNT_H_

namespace collide::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// `full` in Release; full / 10 (at least 1) under a sanitizer.
constexpr int CaseCount(int full) { return kSanitized ? (full / 10 > 0 ? full / 10 : 1) : full; }

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_CASE_COUNT_H_
