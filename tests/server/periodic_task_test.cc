// PeriodicTask: ticks at once and then once per interval, stops promptly
// whatever the interval, and ends when a tick says so.
#include "server/periodic_task.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "support/wait_for.h"

namespace collide::server {
namespace {

using Clock = std::chrono::steady_clock;

// Waits for `count` to reach `n`.
bool Reaches(const std::atomic<int>& count, int n) {
  return collide::testing::WaitFor([&] { return count.load() >= n; }, collide::testing::kHungAfter,
                                   std::chrono::milliseconds(1));
}

TEST(PeriodicTaskTest, TicksAtOnceThenOncePerInterval) {
  std::atomic<int> ticks = 0;
  const auto start = Clock::now();
  PeriodicTask task(absl::Milliseconds(20), [&] {
    ++ticks;
    return true;
  });
  ASSERT_TRUE(Reaches(ticks, 1));
  ASSERT_TRUE(Reaches(ticks, 6));
  // Five waits of 20 ms at least between the first tick and the sixth.
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(100));
}

TEST(PeriodicTaskTest, StoppingWakesTheWaitAtOnce) {
  std::atomic<int> ticks = 0;
  auto task = std::make_unique<PeriodicTask>(absl::Hours(1), [&] {
    ++ticks;
    return true;
  });
  ASSERT_TRUE(Reaches(ticks, 1));
  const auto start = Clock::now();
  task->Stop();
  // At once, not after the hour: a slow (sanitizer) run may take a while.
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  task.reset();  // Stop again: nothing left to do.
  EXPECT_EQ(ticks.load(), 1);
}

TEST(PeriodicTaskTest, ATickReturningFalseEndsIt) {
  std::atomic<int> ticks = 0;
  PeriodicTask task(absl::Milliseconds(1), [&] { return ++ticks < 3; });
  ASSERT_TRUE(Reaches(ticks, 3));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(ticks.load(), 3);
}

}  // namespace
}  // namespace collide::server
