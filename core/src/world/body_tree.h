// A static binary AABB tree over body bounds (items in Morton order of their
// centres, split at the middle, up to kLeafSize per leaf): the broadphase.
// Rebuilt, never refitted: a frame's tree is built once when the frame (and
// again when the next frame) arrives.
#ifndef COLLIDE_CORE_SRC_WORLD_BODY_TREE_H_
#define COLLIDE_CORE_SRC_WORLD_BODY_TREE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "collide/shapes.h"

namespace collide::internal {

class BodyTree {
 public:
  // item i has box boxes[i]; items are reported by index.
  void Build(std::vector<Aabb> boxes);

  // Calls visit(item) for every item whose box the segment origin + t * dir,
  // t in [0, t_max], may cross; visit returns the new t_max (to prune by the
  // best hit so far). dir need not be unit.
  template <typename Visit>
  void Ray(const Vec3& origin, const Vec3& dir, double t_max, Visit&& visit) const;
  // Calls visit(item) for every item whose box overlaps `box`.
  template <typename Visit>
  void Overlap(const Aabb& box, Visit&& visit) const;

  std::size_t memory_bytes() const;

 private:
  struct Node {
    Aabb box;
    std::uint32_t first = 0;  // leaf: first item in order_; inner: left child (right = first + 1).
    std::uint32_t count = 0;  // leaf: items; inner: 0.
  };
  static constexpr std::uint32_t kLeafSize = 4;
  // Traversal stack: the tree is at most 30 bit levels plus 32 halvings of
  // equal codes deep (body_tree.cc), so 128 entries never overflow.
  static constexpr int kStackSize = 128;
  void BuildNode(std::uint32_t node, std::uint32_t begin, std::uint32_t end,
                 const std::vector<std::uint64_t>& keys);
  static bool SlabHit(const Aabb& b, const Vec3& origin, const Vec3& inv, double t_max, double& t_enter);

  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;
  std::vector<Aabb> boxes_;
};

inline bool Overlaps(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

// Slab test (Kay and Kajiya 1986). A zero direction component gives an
// infinite reciprocal: the slab then passes all or nothing, except when the
// origin is exactly on its boundary, where 0 * inf is NaN and the comparisons
// below ignore the axis (a visit too many, never one too few).
inline bool BodyTree::SlabHit(const Aabb& b, const Vec3& origin, const Vec3& inv, double t_max,
                              double& t_enter) {
  double lo = 0.0, hi = t_max;
  for (int k = 0; k < 3; ++k) {
    double t0 = (b.min[k] - origin[k]) * inv[k];
    double t1 = (b.max[k] - origin[k]) * inv[k];
    if (t0 > t1) std::swap(t0, t1);
    lo = t0 > lo ? t0 : lo;
    hi = t1 < hi ? t1 : hi;
  }
  t_enter = lo;
  return lo <= hi;
}

template <typename Visit>
void BodyTree::Ray(const Vec3& origin, const Vec3& dir, double t_max, Visit&& visit) const {
  if (nodes_.empty()) return;
  // 1/0 = inf makes the slab of a parallel axis all or nothing, as wanted.
  const Vec3 inv{1.0 / dir.x, 1.0 / dir.y, 1.0 / dir.z};
  std::uint32_t stack[kStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    double t_enter;
    if (!SlabHit(n.box, origin, inv, t_max, t_enter)) continue;
    if (n.count > 0) {
      for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
        if (SlabHit(boxes_[order_[i]], origin, inv, t_max, t_enter)) t_max = visit(order_[i]);
      }
    } else {
      stack[top++] = n.first + 1;
      stack[top++] = n.first;
    }
  }
}

template <typename Visit>
void BodyTree::Overlap(const Aabb& box, Visit&& visit) const {
  if (nodes_.empty()) return;
  std::uint32_t stack[kStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (!Overlaps(n.box, box)) continue;
    if (n.count > 0) {
      for (std::uint32_t i = n.first; i < n.first + n.count; ++i) {
        if (Overlaps(boxes_[order_[i]], box)) visit(order_[i]);
      }
    } else {
      stack[top++] = n.first + 1;
      stack[top++] = n.first;
    }
  }
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_WORLD_BODY_TREE_H_
