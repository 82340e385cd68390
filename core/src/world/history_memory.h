// The heap bytes of a world's history (snapshots, their trees, the part sets
// and part poses they share), kept up to date as snapshots enter and leave
// instead of walked on demand: the server charges a world's memory after
// every frame, and the walk (a hash insert per body per kept frame, ~8,000
// for 64 bodies x 64 frames, twice per frame) was a fifth of its CPU under
// 64-player matches (perf, `collide bench --matches`).
#ifndef COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_
#define COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_

#include <cstddef>
#include <unordered_map>

#include "world/snapshot.h"

namespace collide::internal {

class HistoryMemory {
 public:
  // `s` enters the history (its tree built): its own bytes, and those of each
  // part set and part pose vector no kept snapshot holds yet.
  void Add(const Snapshot& s);
  // `s` leaves the history: its own bytes, and the shared objects only it held.
  void Remove(const Snapshot& s);
  // A kept snapshot's tree was rebuilt (the latest one's, when the next
  // frame arrives: it then bounds the interval between them).
  void Retree(std::size_t old_tree_bytes, std::size_t new_tree_bytes);
  std::size_t bytes() const { return bytes_; }

  // What `s` itself holds: the snapshot, its body vector, its tree.
  static std::size_t OwnBytes(const Snapshot& s);

 private:
  struct Shared {
    std::size_t holders = 0;  // kept snapshots pointing at it.
    std::size_t bytes = 0;
  };
  void Hold(const void* object, std::size_t bytes);
  void Release(const void* object);

  std::unordered_map<const void*, Shared> shared_;
  std::size_t bytes_ = 0;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_
