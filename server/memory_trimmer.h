// Gives freed heap memory back to the kernel after a burst.
#ifndef COLLIDE_SERVER_MEMORY_TRIMMER_H_
#define COLLIDE_SERVER_MEMORY_TRIMMER_H_

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "absl/time/time.h"

namespace collide::server {

// Resident set size of this process, bytes (/proc/self/statm; 0 if unread).
std::int64_t ResidentBytes();

// Once per `interval`, when the resident set exceeds the heap memory in use
// (mallinfo2) by more than `slack_bytes`, calls malloc_trim(0): glibc then
// returns the free pages of every arena (gRPC's and the call threads'
// included), not only the top of the main heap. Without it, the server's
// resident set stayed near its peak after a burst of large calls (915 MB
// after 65,536-pair readable calls under overload).
class MemoryTrimmer {
 public:
  MemoryTrimmer(absl::Duration interval, std::int64_t slack_bytes);
  ~MemoryTrimmer();  // Stops the thread.

 private:
  void Loop();

  const absl::Duration interval_;
  const std::int64_t slack_bytes_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;  // Guarded by mu_.
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_MEMORY_TRIMMER_H_
