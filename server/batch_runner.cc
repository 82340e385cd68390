#include "server/batch_runner.h"

#include <algorithm>
#include <atomic>

namespace collide::server {

struct BatchRunner::Job {
  Job(std::size_t n, absl::FunctionRef<void(std::size_t, std::size_t)> fn,
      absl::FunctionRef<bool()> should_stop)
      : n(n), chunks((n + kChunkItems - 1) / kChunkItems), fn(fn), should_stop(should_stop) {}

  // Claims and runs chunks until none is left. Returns once this thread has
  // nothing more to do for the job (other threads may still be running
  // chunks they claimed).
  void Work() {
    for (;;) {
      const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) return;
      if (!stopped.load(std::memory_order_relaxed) && should_stop()) {
        stopped.store(true, std::memory_order_relaxed);
      }
      if (!stopped.load(std::memory_order_relaxed)) fn(c * kChunkItems, std::min(n, (c + 1) * kChunkItems));
      if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) finished.notify_all();
    }
  }

  bool HasChunksLeft() const { return next.load(std::memory_order_relaxed) < chunks; }

  const std::size_t n;
  const std::size_t chunks;
  // Only called for chunks claimed before `finished` reaches `chunks`, that
  // is while the caller of Run still waits, so the references stay valid.
  absl::FunctionRef<void(std::size_t, std::size_t)> fn;
  absl::FunctionRef<bool()> should_stop;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::atomic<bool> stopped{false};
};

BatchRunner::BatchRunner(int threads) {
  threads_.reserve(std::max(threads, 1));
  for (int i = 0; i < std::max(threads, 1); ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

BatchRunner::~BatchRunner() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool BatchRunner::Run(std::size_t n, absl::FunctionRef<void(std::size_t, std::size_t)> fn,
                      absl::FunctionRef<bool()> should_stop) {
  if (n == 0) return true;
  if (n <= kChunkItems) {
    // One chunk: run it here, with no job to allocate or hand out (a
    // single-pair call pays nothing for the pool).
    if (should_stop()) return false;
    fn(0, n);
    return true;
  }
  auto job = std::make_shared<Job>(n, fn, should_stop);
  // Each batch running keeps its caller busy; the pool's threads stand for
  // the cores, so only the cores no caller holds are worth a helper. Waking
  // more only adds thread switches (each costs tens of microseconds on a
  // virtual machine) without adding cores: with as many batches running as
  // threads, each runs on its caller alone.
  const std::size_t running = running_.fetch_add(1, std::memory_order_relaxed) + 1;
  const std::size_t free_cores = threads_.size() > running ? threads_.size() - running : 0;
  const std::size_t helpers = std::min(job->chunks - 1, free_cores);
  if (helpers > 0) {
    {
      std::lock_guard lock(mu_);
      queue_.push_back(job);
    }
    for (std::size_t i = 0; i < helpers; ++i) cv_.notify_one();
  }
  job->Work();
  running_.fetch_sub(1, std::memory_order_relaxed);
  if (helpers > 0) Remove(job.get());
  for (std::size_t f = job->finished.load(std::memory_order_acquire); f < job->chunks;
       f = job->finished.load(std::memory_order_acquire)) {
    job->finished.wait(f, std::memory_order_acquire);
  }
  return !job->stopped.load(std::memory_order_relaxed);
}

void BatchRunner::Remove(const Job* job) {
  std::lock_guard lock(mu_);
  const auto it = std::find_if(queue_.begin(), queue_.end(), [job](const auto& j) { return j.get() == job; });
  if (it != queue_.end()) queue_.erase(it);
}

void BatchRunner::WorkerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // Stopping, and nothing left to help with.
      job = queue_.front();
      if (!job->HasChunksLeft()) {
        queue_.pop_front();
        continue;
      }
    }
    job->Work();
    Remove(job.get());
  }
}

}  // namespace collide::server
