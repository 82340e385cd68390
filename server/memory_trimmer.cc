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
    : slack_bytes_(slack_bytes), task_(interval, [this] { return Tick(); }) {}

bool MemoryTrimmer::Tick() {
  const struct mallinfo2 heap = mallinfo2();
  const std::int64_t in_use = static_cast<std::int64_t>(heap.uordblks + heap.hblkhd);
  const std::int64_t resident = ResidentBytes();
  // Resident beyond what malloc has handed out: mostly free heap pages
  // (the rest, code and stacks, is a few tens of MB and constant).
  const bool slack = resident - in_use > slack_bytes_;
  const bool moved =
      std::abs(in_use - in_use_at_trim_) > kMovedBytes || resident > resident_at_trim_ + kMovedBytes;
  if (slack && moved) {
    malloc_trim(0);
    in_use_at_trim_ = in_use;
    resident_at_trim_ = ResidentBytes();
  }
  return true;
}

}  // namespace collide::server
