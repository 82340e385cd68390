#include "server/periodic_task.h"

#include <utility>

namespace collide::server {

PeriodicTask::PeriodicTask(absl::Duration interval, std::function<bool()> tick)
    : interval_(interval), tick_(std::move(tick)), thread_([this] { Loop(); }) {
  std::unique_lock lock(mu_);
  wake_.wait(lock, [this] { return started_; });
}

PeriodicTask::~PeriodicTask() { Stop(); }

void PeriodicTask::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PeriodicTask::Loop() {
  std::unique_lock lock(mu_);
  started_ = true;
  wake_.notify_all();
  while (!stop_) {
    lock.unlock();
    if (!tick_()) return;
    lock.lock();
    wake_.wait_for(lock, absl::ToChronoMicroseconds(interval_), [this] { return stop_; });
  }
}

}  // namespace collide::server
