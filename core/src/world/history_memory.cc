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

std::size_t HistoryMemory::UnsharedBytes(const Snapshot& s, const Snapshot* other) {
  std::size_t bytes = 0, j = 0;
  const std::size_t n = other != nullptr ? other->bodies.size() : 0;
  for (const BodyState& b : s.bodies) {  // both sorted by id.
    while (j < n && other->bodies[j].id < b.id) ++j;
    const BodyState* o = j < n && other->bodies[j].id == b.id ? &other->bodies[j] : nullptr;
    if (b.parts && (o == nullptr || o->parts != b.parts)) bytes += PartSetBytes(*b.parts);
    if (b.part_poses && (o == nullptr || o->part_poses != b.part_poses)) bytes += PosesBytes(*b.part_poses);
  }
  return bytes;
}

void HistoryMemory::Add(const Snapshot& s, const Snapshot* previous) {
  bytes_ += OwnBytes(s) + UnsharedBytes(s, previous);
}

void HistoryMemory::Remove(const Snapshot& s, const Snapshot* next) {
  bytes_ -= OwnBytes(s) + UnsharedBytes(s, next);
}

void HistoryMemory::Retree(std::size_t old_tree_bytes, std::size_t new_tree_bytes) {
  bytes_ = bytes_ - old_tree_bytes + new_tree_bytes;
}

}  // namespace collide::internal
