#include "server/memory_trimmer.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace collide::server {
namespace {

// Change of the heap in use or of the resident set, bytes, that makes
// another trim worth its cost (it walks every arena's free chunks).
constexpr std::int64_t kMovedBytes = 16 << 20;

}  // namespace

std::int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  std::int64_t size = 0;
  std::int64_t resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * sysconf(_SC_PAGESIZE);
}

MemoryTrimmer::MemoryTrimmer(absl::Duration interval, std::int64_t slack_bytes)
    : interval_(interval), slack_bytes_(slack_bytes), thread_([this] { Loop(); }) {}

MemoryTrimmer::~MemoryTrimmer() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void MemoryTrimmer::Loop() {
  // What the last trim saw: trimming again is worth it only once the heap in
  // use or the resident set has moved since.
  std::int64_t in_use_at_trim = -1;
  std::int64_t resident_at_trim = -1;
  std::unique_lock lock(mu_);
  while (!wake_.wait_for(lock, absl::ToChronoMicroseconds(interval_), [this] { return stop_; })) {
    const struct mallinfo2 heap = mallinfo2();
    const std::int64_t in_use = static_cast<std::int64_t>(heap.uordblks + heap.hblkhd);
    const std::int64_t resident = ResidentBytes();
    // Resident beyond what malloc has handed out: mostly free heap pages
    // (the rest, code and stacks, is a few tens of MB and constant).
    const bool slack = resident - in_use > slack_bytes_;
    const bool moved =
        std::abs(in_use - in_use_at_trim) > kMovedBytes || resident > resident_at_trim + kMovedBytes;
    if (slack && moved) {
      malloc_trim(0);
      in_use_at_trim = in_use;
      resident_at_trim = ResidentBytes();
    }
  }
}

}  // namespace collide::server
