// Splits a batch of independent items across a fixed pool of worker threads.
#ifndef COLLIDE_SERVER_BATCH_RUNNER_H_
#define COLLIDE_SERVER_BATCH_RUNNER_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"

namespace collide::server {

// Runs fn(begin, end) over [0, n) in chunks of kChunkItems, on the pool's
// threads and on the calling thread, which works on its own batch rather than
// waiting idle (so a batch always progresses, even when every pool thread is
// busy with other batches). Each item must be computed independently and
// written to its own preallocated slot: the result is then identical whatever
// the thread count or the split. A batch of one chunk runs on the calling
// thread alone, and so does every batch while as many batches run as the
// pool has threads: those stand for the cores, and each running batch's
// caller already keeps one busy (a helper beyond them only adds switches).
class BatchRunner {
 public:
  // Items per chunk: large enough that handing out a chunk (one atomic
  // increment) is negligible next to running it, small enough that 4096-item
  // batches split across a few threads and that cancellation is noticed soon.
  static constexpr std::size_t kChunkItems = 256;

  // threads >= 1 pool threads.
  explicit BatchRunner(int threads);
  ~BatchRunner();
  BatchRunner(const BatchRunner&) = delete;
  BatchRunner& operator=(const BatchRunner&) = delete;

  // Runs every chunk, unless should_stop() (called before each chunk, from
  // any thread) returns true: then the remaining chunks are skipped and Run
  // returns false once the chunks already started have finished.
  bool Run(std::size_t n, absl::FunctionRef<void(std::size_t, std::size_t)> fn,
           absl::FunctionRef<bool()> should_stop);

  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  struct Job;

  void WorkerLoop();
  void Remove(const Job* job);

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Job>> queue_;  // Jobs with chunks left to hand out.
  bool stopping_ = false;
  std::atomic<std::size_t> running_{0};  // Batches in Run (callers at work).
  std::vector<std::thread> threads_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_BATCH_RUNNER_H_
