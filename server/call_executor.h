// Runs admitted calls off gRPC's threads.
#ifndef COLLIDE_SERVER_CALL_EXECUTOR_H_
#define COLLIDE_SERVER_CALL_EXECUTOR_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace collide::server {

// A fixed pool of threads running tasks in arrival order. gRPC 1.51 runs
// callback handlers on a few threads of its own; a handler that computed a
// large batch there would hold one of them for the whole batch, so calls
// arriving meanwhile would wait inside gRPC, uncounted, instead of reaching
// the admission check. Handlers post large batches here and return at once.
class CallExecutor {
 public:
  explicit CallExecutor(int threads);
  // Runs every task already posted, then joins the threads.
  ~CallExecutor();
  CallExecutor(const CallExecutor&) = delete;
  CallExecutor& operator=(const CallExecutor&) = delete;

  void Post(std::function<void()> task);
  // The calling thread is one of some CallExecutor's (tests: where a call ran).
  static bool OnPoolThread();

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;  // Guarded by mu_.
  bool stopping_ = false;                    // Guarded by mu_.
  std::vector<std::thread> threads_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_CALL_EXECUTOR_H_
