// What a world keeps of its visibility answers between calls when
// VisibilitySettings::reuse_ticks > 0: per observer-target pair, the plane
// that hid it, or the tick and regions it was judged visible on. Indexed by
// the bodies' places in the latest call's scene (sorted by id), remapped
// when the bodies change; kept for at most kMaxBodies bodies.
#ifndef COLLIDE_CORE_SRC_VISIBILITY_VISIBILITY_MEMORY_H_
#define COLLIDE_CORE_SRC_VISIBILITY_VISIBILITY_MEMORY_H_

#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "collide/math.h"
#include "visibility/voxel_grid.h"

namespace collide::internal {

struct PairMemory {
  enum class Kind : std::uint8_t { kNone, kHidden, kVisible };
  Kind kind = Kind::kNone;
  VoxelGrid::Plane plane;  // kHidden
  std::int64_t tick = 0;   // kVisible: the tick judged at, and the regions
  std::array<float, 6> eye{}, target{};
  void SetVisible(std::int64_t at, const Aabb& a, const Aabb& b);
  // a and b within `slack` of the regions judged on.
  bool Near(const Aabb& a, const Aabb& b, double slack) const;
};

class VisibilityMemory {
 public:
  static constexpr std::size_t kMaxBodies = 256;
  std::mutex mu;
  // Makes the entries those of `ids` (increasing, at most kMaxBodies): the
  // pairs of bodies kept keep their entries, the others start empty.
  void Align(std::span<const std::int64_t> ids);
  PairMemory& at(std::size_t observer, std::size_t target) { return pairs_[observer * ids_.size() + target]; }

 private:
  std::vector<std::int64_t> ids_;
  std::vector<PairMemory> pairs_;
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_VISIBILITY_VISIBILITY_MEMORY_H_
