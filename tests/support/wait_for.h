// The one way tests wait for something to happen (a server to serve, a
// phase of a load to be over, a proxy to mark a replica down): poll a
// condition until it holds. The wait ends as soon as the condition holds,
// so a fast machine is not slowed, and its timeout is only a safety net for
// a hung run, far beyond what the condition takes on a slow or loaded one
// (sanitizer builds, a CPU hog beside the test): a count of calls or a
// fixed sleep must never decide what a test can observe (issue 21).
#ifndef COLLIDE_TESTS_SUPPORT_WAIT_FOR_H_
#define COLLIDE_TESTS_SUPPORT_WAIT_FOR_H_

#include <chrono>
#include <thread>

namespace collide::testing {

// The safety net of a wait that normally takes well under a second.
inline constexpr std::chrono::seconds kHungAfter{60};

// Polls `done()` every `poll` until it returns true (then true) or `timeout`
// has passed (then false, after one last check).
template <typename Done>
bool WaitFor(Done&& done, std::chrono::milliseconds timeout = kHungAfter,
             std::chrono::milliseconds poll = std::chrono::milliseconds(5)) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return done();
    std::this_thread::sleep_for(poll);
  }
  return true;
}

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_WAIT_FOR_H_
