#include "visibility/visibility_memory.h"

#include <algorithm>

namespace collide::internal {
namespace {

std::array<float, 6> Pack(const Aabb& box) {
  return {static_cast<float>(box.min.x), static_cast<float>(box.min.y), static_cast<float>(box.min.z),
          static_cast<float>(box.max.x), static_cast<float>(box.max.y), static_cast<float>(box.max.z)};
}

// box within `slack` of the packed one (float rounding is far below any
// slack used; the test decides only what is reused, never what is hidden).
bool Within(const Aabb& box, const std::array<float, 6>& was, double slack) {
  for (int k = 0; k < 3; ++k) {
    if (!(box.min[k] >= was[k] - slack) || !(box.max[k] <= was[k + 3] + slack)) return false;
  }
  return true;
}

}  // namespace

void PairMemory::SetVisible(std::int64_t at, const Aabb& a, const Aabb& b) {
  kind = Kind::kVisible;
  tick = at;
  eye = Pack(a);
  target = Pack(b);
}

bool PairMemory::Near(const Aabb& a, const Aabb& b, double slack) const {
  return Within(a, eye, slack) && Within(b, target, slack);
}

void VisibilityMemory::Align(std::span<const std::int64_t> ids) {
  if (std::equal(ids.begin(), ids.end(), ids_.begin(), ids_.end())) return;
  const std::size_t n = ids.size(), m = ids_.size();
  std::vector<PairMemory> pairs(n * n);
  // Each new place's old one (m: new body).
  std::vector<std::size_t> old(n, m);
  for (std::size_t i = 0; i < n; ++i) {
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), ids[i]);
    if (it != ids_.end() && *it == ids[i]) old[i] = static_cast<std::size_t>(it - ids_.begin());
  }
  for (std::size_t o = 0; o < n; ++o) {
    if (old[o] == m) continue;
    for (std::size_t t = 0; t < n; ++t) {
      if (old[t] != m) pairs[o * n + t] = pairs_[old[o] * m + old[t]];
    }
  }
  ids_.assign(ids.begin(), ids.end());
  pairs_ = std::move(pairs);
}

}  // namespace collide::internal
