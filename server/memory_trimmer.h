// Gives freed heap memory back to the kernel after a burst.
#ifndef COLLIDE_SERVER_MEMORY_TRIMMER_H_
#define COLLIDE_SERVER_MEMORY_TRIMMER_H_

#include <cstdint>

#include "absl/time/time.h"
#include "server/periodic_task.h"

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

 private:
  bool Tick();  // One check; always goes on.

  const std::int64_t slack_bytes_;
  // What the last trim saw: trimming again is worth it only once the heap in
  // use or the resident set has moved since (task_'s thread only).
  std::int64_t in_use_at_trim_ = -1;
  std::int64_t resident_at_trim_ = -1;
  PeriodicTask task_;  // Last: stopped before the members its ticks use go.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_MEMORY_TRIMMER_H_
