#include "world/history_memory.h"

namespace collide::internal {
namespace {

std::size_t PartSetBytes(const PartSet& p) {
  return p.ids.capacity() * sizeof(std::int32_t) + p.shapes.capacity() * sizeof(Shape);
}
std::size_t PosesBytes(const std::vector<Pose>& p) { return p.capacity() * sizeof(Pose); }

}  // namespace

std::size_t HistoryMemory::OwnBytes(const Snapshot& s) {
  return sizeof(Snapshot) + s.bodies.capacity() * sizeof(BodyState) + s.tree.memory_bytes();
}

void HistoryMemory::Add(const Snapshot& s) {
  bytes_ += OwnBytes(s);
  for (const BodyState& b : s.bodies) {
    if (b.parts) Hold(b.parts.get(), PartSetBytes(*b.parts));
    if (b.part_poses) Hold(b.part_poses.get(), PosesBytes(*b.part_poses));
  }
}

void HistoryMemory::Remove(const Snapshot& s) {
  bytes_ -= OwnBytes(s);
  for (const BodyState& b : s.bodies) {
    Release(b.parts.get());
    Release(b.part_poses.get());
  }
}

void HistoryMemory::Retree(std::size_t old_tree_bytes, std::size_t new_tree_bytes) {
  bytes_ = bytes_ - old_tree_bytes + new_tree_bytes;
}

void HistoryMemory::Hold(const void* object, std::size_t bytes) {
  Shared& s = shared_[object];
  if (s.holders++ == 0) {
    s.bytes = bytes;
    bytes_ += bytes;
  }
}

void HistoryMemory::Release(const void* object) {
  const auto it = shared_.find(object);
  if (it == shared_.end()) return;
  if (--it->second.holders == 0) {
    bytes_ -= it->second.bytes;
    shared_.erase(it);
  }
}

}  // namespace collide::internal
