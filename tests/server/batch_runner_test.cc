#include "server/batch_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "support/wait_for.h"

namespace collide::server {
namespace {

TEST(BatchRunnerTest, RunsEveryItemExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    BatchRunner runner(threads);
    EXPECT_EQ(runner.threads(), threads);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, BatchRunner::kChunkItems - 1,
                          BatchRunner::kChunkItems, BatchRunner::kChunkItems + 1, std::size_t{10000}}) {
      std::vector<std::atomic<int>> runs(n);
      const bool finished = runner.Run(
          n,
          [&runs](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) runs[i].fetch_add(1);
          },
          [] { return false; });
      EXPECT_TRUE(finished);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(runs[i].load(), 1) << "item " << i << " of " << n;
    }
  }
}

TEST(BatchRunnerTest, ConcurrentBatchesFromManyCallers) {
  BatchRunner runner(2);
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&runner, &wrong, c] {
      for (int round = 0; round < 20; ++round) {
        std::vector<int> out(3000 + c * 100, -1);
        runner.Run(
            out.size(),
            [&out](std::size_t begin, std::size_t end) {
              for (std::size_t i = begin; i < end; ++i) out[i] = static_cast<int>(i);
            },
            [] { return false; });
        for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != static_cast<int>(i);
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

// On an idle pool of two threads a batch of many chunks is shared: the caller
// wakes one helper (the pool's threads stand for the cores: the caller's own
// core plus one). The first chunk waits, boundedly, for another thread to
// run a chunk; without a helper it would run every chunk itself, alone. (A
// pool thread that is awake anyway, e.g. just started, may join too.)
TEST(BatchRunnerTest, IdlePoolSharesABatchWithAHelper) {
  BatchRunner runner(2);
  std::mutex mu;
  std::set<std::thread::id> threads;
  std::atomic<bool> first{true};
  runner.Run(
      64 * BatchRunner::kChunkItems,
      [&](std::size_t, std::size_t) {
        {
          std::lock_guard lock(mu);
          threads.insert(std::this_thread::get_id());
        }
        if (first.exchange(false)) {
          collide::testing::WaitFor([&] {
            std::lock_guard lock(mu);
            return threads.size() > 1;
          });
        }
      },
      [] { return false; });
  EXPECT_GE(threads.size(), 2u);
}

// A pool of one thread stands for one core: the caller runs its batch alone.
TEST(BatchRunnerTest, OneThreadPoolLeavesTheBatchToItsCaller) {
  BatchRunner runner(1);
  std::mutex mu;
  std::set<std::thread::id> threads;
  runner.Run(
      64 * BatchRunner::kChunkItems,
      [&](std::size_t, std::size_t) {
        std::lock_guard lock(mu);
        threads.insert(std::this_thread::get_id());
      },
      [] { return false; });
  EXPECT_EQ(threads, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(BatchRunnerTest, StopsHandingOutChunksOnceAskedTo) {
  BatchRunner runner(2);
  std::atomic<std::size_t> ran{0};
  std::atomic<int> checks{0};
  const bool finished = runner.Run(
      100 * BatchRunner::kChunkItems, [&ran](std::size_t begin, std::size_t end) { ran += end - begin; },
      [&checks] { return checks.fetch_add(1) >= 3; });
  EXPECT_FALSE(finished);
  // At most the chunks whose check came before the stop ran.
  EXPECT_LE(ran.load(), 3 * BatchRunner::kChunkItems);
}

}  // namespace
}  // namespace collide::server
