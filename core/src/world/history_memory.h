// The heap bytes of a world's history (snapshots, their trees, the part sets
// and part poses they share), kept up to date as snapshots enter and leave
// instead of walked on demand: the server charges a world's memory after
// every frame, and a walk (a hash insert per body per kept frame, ~8,000
// for 64 bodies x 64 frames, twice per frame) would be a fifth of its CPU
// under 64-player matches (perf, `collide bench --matches`).
#ifndef COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_
#define COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_

#include <cstddef>

#include "world/snapshot.h"

namespace collide::internal {

// Each part set and part-pose vector is made for one body in one frame and
// carried to the following frames until replaced (PushFrame copies the
// latest snapshot's pointers, and a new body gets new objects), so the kept
// snapshots holding it are consecutive: comparing a snapshot with its
// neighbour, body by body in id order, finds what it alone holds, with no
// table of holders (whose hash operations, four per body per frame, would be
// most of a 10,000-body frame's accounting).
class HistoryMemory {
 public:
  // `s` enters the history after `previous` (null: the first): its own
  // bytes, and those of each part set and part pose vector it does not share
  // with `previous`.
  void Add(const Snapshot& s, const Snapshot* previous);
  // `s`, the oldest, leaves the history before `next` (null: none left): its
  // own bytes, and the shared objects `next` does not hold.
  void Remove(const Snapshot& s, const Snapshot* next);
  // A kept snapshot's tree was rebuilt (the latest one's, when the next
  // frame arrives: it then bounds the interval between them).
  void Retree(std::size_t old_tree_bytes, std::size_t new_tree_bytes);
  std::size_t bytes() const { return bytes_; }

  // What `s` itself holds: the snapshot, its body vector, its tree.
  static std::size_t OwnBytes(const Snapshot& s);
  // The part sets and part poses of `s` that `other` (a neighbour, or null)
  // does not point at too.
  static std::size_t UnsharedBytes(const Snapshot& s, const Snapshot* other);

 private:
  std::size_t bytes_ = 0;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_HISTORY_MEMORY_H_
