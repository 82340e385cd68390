// Binned SAH build (Wald, "On fast Construction of SAH-based Bounding Volume
// Hierarchies", 2007) producing 4-wide nodes directly: a node's triangle
// range is split in two, then the larger-area part again, until it has four
// children (the collapse of a binary SAH tree, done while building). No
// recursion: pending nodes wait on an explicit work list.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "mesh/bvh.h"

namespace collide::internal {

namespace {

constexpr int kBins = 32;
constexpr float kInf = std::numeric_limits<float>::infinity();

struct Box {
  float lo[3] = {kInf, kInf, kInf};
  float hi[3] = {-kInf, -kInf, -kInf};
  void Grow(const Box& b) {
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], b.lo[k]), hi[k] = std::max(hi[k], b.hi[k]);
  }
  void GrowPoint(const float* p) {
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
  }
  // Half the surface area (the SAH only compares).
  float HalfArea() const {
    const float dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return dx < 0 ? 0.0f : dx * dy + dy * dz + dz * dx;
  }
};

// A range of the index array with the box of its triangles and of their
// centroids.
struct Range {
  std::uint32_t begin, end;
  Box box, centroids;
  std::uint32_t size() const { return end - begin; }
};

class Builder {
 public:
  Builder(const std::vector<Vec3>& vertices, const std::vector<BvhTriangle>& tris) : tris_(tris) {
    const std::size_t n = tris.size();
    boxes_.resize(n);
    centroids_.resize(n);
    ids_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& a = vertices[tris[i].v[0]];
      const Vec3& b = vertices[tris[i].v[1]];
      const Vec3& c = vertices[tris[i].v[2]];
      const Vec3 lo = Min(a, Min(b, c)), hi = Max(a, Max(b, c));
      Box& box = boxes_[i];
      for (int k = 0; k < 3; ++k) box.lo[k] = RoundDown(lo[k]), box.hi[k] = RoundUp(hi[k]);
      for (int k = 0; k < 3; ++k) centroids_[i][k] = box.lo[k] + box.hi[k];  // 2 x centroid.
      ids_[i] = static_cast<std::uint32_t>(i);
    }
  }

  Bvh Build() {
    Bvh bvh;
    if (ids_.empty()) return bvh;
    struct Task {
      std::uint32_t node;
      int depth;
      Range range;
    };
    std::vector<Task> work;
    bvh.nodes.emplace_back();
    work.push_back({0, 1, Bounded(0, static_cast<std::uint32_t>(ids_.size()))});
    while (!work.empty()) {
      const Task task = work.back();
      work.pop_back();
      bvh.depth = std::max(bvh.depth, task.depth);
      const bool median = task.depth >= kBvhSahDepth;
      // Up to four children: split the splittable child of largest area.
      std::array<Range, 4> kids;
      int num = 1;
      kids[0] = task.range;
      while (num < 4) {
        int pick = -1;
        for (int i = 0; i < num; ++i) {
          if (kids[i].size() > kBvhMaxLeafSize &&
              (pick < 0 || kids[i].box.HalfArea() > kids[pick].box.HalfArea())) {
            pick = i;
          }
        }
        if (pick < 0) break;
        Range left, right;
        Split(kids[pick], median, left, right);
        kids[pick] = left;
        kids[num++] = right;
      }
      BvhNode node{};
      node.num_children = static_cast<std::uint8_t>(num);
      for (int i = num; i < 4; ++i) {
        node.min_x[i] = node.min_y[i] = node.min_z[i] = kInf;
        node.max_x[i] = node.max_y[i] = node.max_z[i] = -kInf;
      }
      for (int i = 0; i < num; ++i) {
        const Range& k = kids[i];
        node.min_x[i] = k.box.lo[0], node.min_y[i] = k.box.lo[1], node.min_z[i] = k.box.lo[2];
        node.max_x[i] = k.box.hi[0], node.max_y[i] = k.box.hi[1], node.max_z[i] = k.box.hi[2];
        if (k.size() <= kBvhMaxLeafSize) {
          node.child[i] = k.begin | k.size() << kLeafShift;
        } else {
          node.child[i] = static_cast<std::uint32_t>(bvh.nodes.size());
          bvh.nodes.emplace_back();
          work.push_back({node.child[i], task.depth + 1, k});
        }
      }
      bvh.nodes[task.node] = node;
    }
    bvh.nodes.shrink_to_fit();
    bvh.triangles.resize(ids_.size());
    for (std::size_t i = 0; i < ids_.size(); ++i) bvh.triangles[i] = tris_[ids_[i]];
    return bvh;
  }

 private:
  // The range [begin, end) with its boxes computed.
  Range Bounded(std::uint32_t begin, std::uint32_t end) const {
    Range r{begin, end, {}, {}};
    for (std::uint32_t i = begin; i < end; ++i) {
      r.box.Grow(boxes_[ids_[i]]);
      r.centroids.GrowPoint(centroids_[ids_[i]].data());
    }
    return r;
  }

  static int LargestAxis(const Box& b) {
    const float dx = b.hi[0] - b.lo[0], dy = b.hi[1] - b.lo[1], dz = b.hi[2] - b.lo[2];
    return dx >= dy ? (dx >= dz ? 0 : 2) : (dy >= dz ? 1 : 2);
  }

  // Splits r into two non-empty ranges: binned SAH along the largest
  // centroid axis, or the object median (when asked, or when every centroid
  // falls in one bin).
  void Split(const Range& r, bool median, Range& left, Range& right) {
    const int axis = LargestAxis(r.centroids);
    const float lo = r.centroids.lo[axis], extent = r.centroids.hi[axis] - lo;
    if (!median && extent > 0.0f) {
      // Bin index of a centroid; the factor keeps the largest in the last bin.
      // In double and clamped before the conversion: a subnormal extent makes
      // the scale infinite (and 0 * inf NaN), which no int can hold.
      const double scale = kBins * (1.0 - 1e-5) / extent;
      auto bin_of = [&](std::uint32_t id) {
        const double t = (static_cast<double>(centroids_[id][axis]) - lo) * scale;
        if (!(t > 0.0)) return 0;
        return t >= kBins - 1 ? kBins - 1 : static_cast<int>(t);
      };
      std::array<Box, kBins> bins, cbins;
      std::array<std::uint32_t, kBins> counts{};
      for (std::uint32_t i = r.begin; i < r.end; ++i) {
        const std::uint32_t id = ids_[i];
        const int b = bin_of(id);
        bins[b].Grow(boxes_[id]);
        cbins[b].GrowPoint(centroids_[id].data());
        ++counts[b];
      }
      // Sweep from the right for the suffix areas, then from the left.
      std::array<float, kBins> right_cost{};
      Box acc;
      std::uint32_t count = 0;
      for (int b = kBins - 1; b > 0; --b) {
        acc.Grow(bins[b]);
        count += counts[b];
        right_cost[b] = acc.HalfArea() * static_cast<float>(count);
      }
      float best = kInf;
      int best_split = -1;
      acc = Box{};
      count = 0;
      for (int b = 0; b < kBins - 1; ++b) {
        acc.Grow(bins[b]);
        count += counts[b];
        if (count == 0 || count == r.size()) continue;
        const float cost = acc.HalfArea() * static_cast<float>(count) + right_cost[b + 1];
        if (cost < best) best = cost, best_split = b;
      }
      if (best_split >= 0) {
        const std::uint32_t* mid = std::partition(ids_.data() + r.begin, ids_.data() + r.end,
                                                  [&](std::uint32_t id) { return bin_of(id) <= best_split; });
        const std::uint32_t m = static_cast<std::uint32_t>(mid - ids_.data());
        left = {r.begin, m, {}, {}};
        right = {m, r.end, {}, {}};
        for (int b = 0; b < kBins; ++b) {
          Range& side = b <= best_split ? left : right;
          side.box.Grow(bins[b]);
          side.centroids.Grow(cbins[b]);
        }
        return;
      }
    }
    const std::uint32_t m = r.begin + r.size() / 2;
    if (extent > 0.0f) {
      std::nth_element(
          ids_.data() + r.begin, ids_.data() + m, ids_.data() + r.end,
          [&](std::uint32_t a, std::uint32_t b) { return centroids_[a][axis] < centroids_[b][axis]; });
    }
    left = Bounded(r.begin, m);
    right = Bounded(m, r.end);
  }

  const std::vector<BvhTriangle>& tris_;
  std::vector<Box> boxes_;
  std::vector<std::array<float, 3>> centroids_;
  std::vector<std::uint32_t> ids_;
};

}  // namespace

Bvh BuildBvh(const std::vector<Vec3>& vertices, std::vector<BvhTriangle> triangles) {
  return Builder(vertices, triangles).Build();
}

}  // namespace collide::internal
