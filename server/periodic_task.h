// A thread that runs a check once per interval until stopped: the loop the
// listener watchdog and the memory trimmer share.
#ifndef COLLIDE_SERVER_PERIODIC_TASK_H_
#define COLLIDE_SERVER_PERIODIC_TASK_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "absl/time/time.h"

namespace collide::server {

// Runs tick() on its own thread at once, then once per `interval`, until
// tick returns false or the task is stopped. Stopping wakes the thread from
// its wait, so it never takes an interval; a tick under way is finished.
class PeriodicTask {
 public:
  // Returns once the thread runs: a process then out of file descriptors
  // (the flood the listener watchdog looks for) does not meet a thread still
  // starting, which UBSan's vptr check cannot then read (it probes memory
  // through a pipe).
  PeriodicTask(absl::Duration interval, std::function<bool()> tick);
  ~PeriodicTask();  // Stop().
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

  // Wakes the thread and joins it; idempotent. Owners whose tick uses their
  // own members call it first in their destructor.
  void Stop();

 private:
  void Loop();

  const absl::Duration interval_;
  const std::function<bool()> tick_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool started_ = false;  // Guarded by mu_.
  bool stop_ = false;     // Guarded by mu_.
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_PERIODIC_TASK_H_
