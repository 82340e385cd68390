#include "server/call_executor.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "server/batch_runner.h"

namespace collide::server {
namespace {

// Tasks posted from several threads all run, each once, and their plain
// (non-atomic) writes are visible after the executor is destroyed: the
// destructor runs what was posted before joining. Under TSan this checks the
// executor's own synchronisation.
TEST(CallExecutorTest, RunsEveryPostedTaskOnceEvenWhenDestroyedRightAway) {
  constexpr int kPosters = 4;
  constexpr int kTasksEach = 250;
  std::vector<int> runs(kPosters * kTasksEach, 0);
  {
    CallExecutor executor(3);
    std::vector<std::thread> posters;
    for (int p = 0; p < kPosters; ++p) {
      posters.emplace_back([&executor, &runs, p] {
        for (int i = 0; i < kTasksEach; ++i) executor.Post([&runs, k = p * kTasksEach + i] { ++runs[k]; });
      });
    }
    for (std::thread& t : posters) t.join();
  }
  for (std::size_t k = 0; k < runs.size(); ++k) ASSERT_EQ(runs[k], 1) << "task " << k;
}

// A call thread runs a batch on a shared BatchRunner, as the service does:
// several at once, each result written by whichever thread ran its chunk.
TEST(CallExecutorTest, ConcurrentBatchesOnASharedRunnerAreComplete) {
  BatchRunner runner(2);
  constexpr int kCalls = 8;
  constexpr std::size_t kItems = 4 * BatchRunner::kChunkItems + 7;
  std::vector<std::vector<int>> results(kCalls, std::vector<int>(kItems, 0));
  std::vector<char> finished(kCalls, 0);  // Not vector<bool>: its bits share words.
  {
    CallExecutor executor(3);
    for (int c = 0; c < kCalls; ++c) {
      executor.Post([&, c] {
        finished[c] = runner.Run(
            kItems,
            [&results, c](std::size_t begin, std::size_t end) {
              for (std::size_t i = begin; i < end; ++i) results[c][i] = static_cast<int>(i) + c;
            },
            [] { return false; });
      });
    }
  }
  for (int c = 0; c < kCalls; ++c) {
    EXPECT_TRUE(finished[c]);
    for (std::size_t i = 0; i < kItems; ++i) ASSERT_EQ(results[c][i], static_cast<int>(i) + c);
  }
}

}  // namespace
}  // namespace collide::server
