#include "world/body_tree.h"

#include <algorithm>
#include <numeric>

namespace collide::internal {

void BodyTree::Build(std::vector<Aabb> boxes) {
  boxes_ = std::move(boxes);
  nodes_.clear();
  order_.resize(boxes_.size());
  std::iota(order_.begin(), order_.end(), 0u);
  if (boxes_.empty()) return;
  std::vector<Vec3> centres(boxes_.size());
  for (std::size_t i = 0; i < boxes_.size(); ++i) centres[i] = (boxes_[i].min + boxes_[i].max) * 0.5;
  nodes_.reserve(2 * boxes_.size() / kLeafSize + 2);
  nodes_.emplace_back();
  BuildNode(0, 0, static_cast<std::uint32_t>(boxes_.size()), centres);
}

void BodyTree::BuildNode(std::uint32_t node, std::uint32_t begin, std::uint32_t end,
                         const std::vector<Vec3>& centres) {
  Aabb box = boxes_[order_[begin]];
  Aabb cbox{centres[order_[begin]], centres[order_[begin]]};
  for (std::uint32_t i = begin + 1; i < end; ++i) {
    box = {Min(box.min, boxes_[order_[i]].min), Max(box.max, boxes_[order_[i]].max)};
    cbox = {Min(cbox.min, centres[order_[i]]), Max(cbox.max, centres[order_[i]])};
  }
  nodes_[node].box = box;
  if (end - begin <= kLeafSize) {
    nodes_[node].first = begin;
    nodes_[node].count = end - begin;
    return;
  }
  const Vec3 extent = cbox.max - cbox.min;
  const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const std::uint32_t mid = begin + (end - begin) / 2;
  // Ties broken by index so the split is a function of the input alone.
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) {
                     const double ca = centres[a][axis], cb = centres[b][axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const auto left = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  nodes_.emplace_back();
  nodes_[node].first = left;
  nodes_[node].count = 0;
  BuildNode(left, begin, mid, centres);
  BuildNode(left + 1, mid, end, centres);
}

std::size_t BodyTree::memory_bytes() const {
  return nodes_.capacity() * sizeof(Node) + order_.capacity() * sizeof(std::uint32_t) +
         boxes_.capacity() * sizeof(Aabb);
}

}  // namespace collide::internal
