// VoxelGrid::Hidden: the walk of each pair over the layers between its two
// regions, many pairs at a time. A step of a walk reads a voxel of a distance
// field (megabytes: mostly a cache miss) and the next step depends on it, so
// one walk waits on memory at every step. kLanes walks go side by side
// instead: each step computes the lane's next address and prefetches it, and
// the lane reads it a round later, while the other lanes' reads are in
// flight. A plane's four summed-area table reads are pipelined the same way.
// The answers are those of one walk at a time.
#include <algorithm>
#include <cmath>

#include "simd/prefetch.h"
#include "visibility/voxel_grid.h"

namespace collide::internal {
namespace {

constexpr int kLanes = 16;
enum StepResult { kGoing, kVisible, kHiddenPair };

}  // namespace

struct VoxelGrid::Walk {
  std::size_t pair = 0;
  const Aabb* a = nullptr;
  const Aabb* b = nullptr;
  std::array<int, 3> axes{};
  int axis_count = 0, axis_at = -1;
  // The walk along axis k from a's side: layers [first, last], the point of
  // the segment between the centres at layer s is start + step * s (voxel
  // units), skipping (d - 1) * per_motion layers from a voxel d from every
  // voxel that may hide.
  int k = 0;
  const Aabb* lo = nullptr;
  const Aabb* hi = nullptr;
  Vec3 start, step;
  double per_motion = 1.0;
  std::int64_t s = 0, first = 0, last = -1, sign = 1;
  // The read pending: a plane's rectangle, or the voxel's distance.
  bool plane = false;
  bool inside = false;
  std::size_t voxel = 0;
  Rect rect{};
};

bool VoxelGrid::Judgeable(const Aabb& a, const Aabb& b) const {
  // Regions swept or grown past the doubles' range say nothing: visible.
  return info_.built && IsValidNumber(a.min) && IsValidNumber(a.max) && IsValidNumber(b.min) &&
         IsValidNumber(b.max);
}

bool VoxelGrid::BeginPair(Walk& w) const {
  const Aabb& a = *w.a;
  const Aabb& b = *w.b;
  if (!Judgeable(a, b)) return false;
  // The axes the regions are apart on, the one the centres are furthest
  // apart along first: its layers skip furthest and its walls hide most.
  // Any order gives the same answer (some layer tried hides), only sooner.
  std::array<double, 3> gap{};
  w.axis_count = 0;
  for (int k = 0; k < 3; ++k) {
    if (!(a.max[k] < b.min[k]) && !(b.max[k] < a.min[k])) continue;
    gap[k] = std::fabs((b.min[k] + b.max[k]) - (a.min[k] + a.max[k]));
    w.axes[w.axis_count++] = k;
  }
  std::sort(w.axes.begin(), w.axes.begin() + w.axis_count, [&](int i, int j) { return gap[i] > gap[j]; });
  w.axis_at = -1;
  return NextAxis(w);
}

bool VoxelGrid::NextAxis(Walk& w) const {
  while (++w.axis_at < w.axis_count) {
    const int k = w.k = w.axes[w.axis_at];
    const bool a_below = w.a->max[k] < w.b->min[k];
    const Aabb& lo = *(w.lo = a_below ? w.a : w.b);
    const Aabb& hi = *(w.hi = a_below ? w.b : w.a);
    // The layers whose centre plane lies strictly between the two.
    const auto centre = [&](std::int64_t s) { return origin_[k] + (static_cast<double>(s) + 0.5) * h_; };
    std::int64_t first = static_cast<std::int64_t>(
        std::clamp(std::floor((lo.max[k] - origin_[k]) / h_ - 0.5), -1.0, static_cast<double>(n_[k])));
    std::int64_t last = static_cast<std::int64_t>(
        std::clamp(std::ceil((hi.min[k] - origin_[k]) / h_ - 0.5), -1.0, static_cast<double>(n_[k])));
    first = std::max<std::int64_t>(first, 0);
    last = std::min(last, n_[k] - 1);
    while (first <= last && !(centre(first) > lo.max[k])) ++first;
    while (first <= last && !(centre(last) < hi.min[k])) --last;
    if (first > last) continue;
    // The layers tried: those where the segment between the centres is in
    // a voxel solid with its 8 neighbours in the layer (a hiding rectangle
    // holds that point; one a voxel wide or less near the eye is not
    // tried: culling, never safety, depends on this choice). From a voxel
    // d > 0 from every such one, the next m layers' points (either way)
    // stay within d - 1 voxels of it while m * (the point's motion per
    // layer, in voxels) <= d - 1: those are skipped. The walk starts at
    // a's side (the eye's), where rectangles are smallest and hide most.
    const Vec3 p = (lo.min + lo.max) * 0.5, dir = (hi.min + hi.max) * 0.5 - p;
    w.step = dir / dir[k];
    const double motion = std::max({1.0, std::fabs(w.step.x), std::fabs(w.step.y), std::fabs(w.step.z)});
    w.per_motion = 1 / (motion * (1 + 1e-9));  // rounded down: never too far
    w.start = (p + w.step * (centre(0) - p[k]) - origin_) / h_;
    w.first = first;
    w.last = last;
    w.sign = a_below ? 1 : -1;
    w.s = a_below ? first : last;
    Locate(w);
    return true;
  }
  return false;
}

void VoxelGrid::Locate(Walk& w) const {
  const Vec3 q = w.start + w.step * static_cast<double>(w.s);
  std::array<std::int64_t, 3> v{};
  w.inside = true;
  for (int j = 0; j < 3; ++j) {
    w.inside = w.inside && q[j] >= 0 && q[j] < static_cast<double>(n_[j]);
    v[j] = w.inside ? static_cast<std::int64_t>(q[j]) : 0;
  }
  v[w.k] = w.s;
  w.plane = false;
  if (!w.inside) return;
  w.voxel = static_cast<std::size_t>(Index(v[0], v[1], v[2]));
  Prefetch(&distance_[w.k][w.voxel]);
}

int VoxelGrid::Step(Walk& w) const {
  int d = 1;  // beyond the grid: no solid voxel, one layer at a time.
  if (w.plane) {
    if (AllSolid(w.k, w.s, w.rect)) return kHiddenPair;
    d = 0;
  } else if (w.inside) {
    d = distance_[w.k][w.voxel];
    if (d == 0 && PlaneRect(w.k, w.s, *w.lo, *w.hi, w.rect)) {
      PrefetchRect(w.k, w.s, w.rect);
      w.plane = true;
      return kGoing;
    }
  }
  w.s += w.sign * (1 + (d > 1 ? static_cast<std::int64_t>((d - 1) * w.per_motion) : 0));
  if (w.s >= w.first && w.s <= w.last) {
    Locate(w);
    return kGoing;
  }
  return NextAxis(w) ? kGoing : kVisible;
}

void VoxelGrid::PrefetchRect(int axis, std::int64_t layer, const Rect& r) const {
  const std::int64_t stride = n_[(axis + 1) % 3] + 1;
  const std::uint16_t* t = Table(axis, layer);
  for (const std::int64_t row : {r.lo[1], r.hi[1] + 1}) {
    Prefetch(t + row * stride + r.lo[0]);
    Prefetch(t + row * stride + r.hi[0] + 1);
  }
}

bool VoxelGrid::PlaneBetween(const Aabb& a, const Aabb& b, Plane plane, Rect& r) const {
  const int k = plane.axis;
  if (k < 0 || plane.layer < 0 || plane.layer >= n_[k] || !Judgeable(a, b)) return false;
  const bool a_below = a.max[k] < b.min[k];
  if (!a_below && !(b.max[k] < a.min[k])) return false;
  const Aabb& lo = a_below ? a : b;
  const Aabb& hi = a_below ? b : a;
  const double c = origin_[k] + (static_cast<double>(plane.layer) + 0.5) * h_;
  return c > lo.max[k] && c < hi.min[k] && PlaneRect(k, plane.layer, lo, hi, r);
}

void VoxelGrid::Hides(const std::vector<RegionPair>& pairs, const std::vector<Plane>& planes,
                      std::vector<std::uint8_t>& hides) const {
  // In blocks of kLanes: each block's rectangles first, their table entries
  // prefetched, then their counts, so that the reads overlap.
  hides.assign(pairs.size(), 0);
  std::array<Rect, kLanes> rects;
  std::array<bool, kLanes> between{};
  for (std::size_t first = 0; first < pairs.size(); first += kLanes) {
    const std::size_t n = std::min<std::size_t>(kLanes, pairs.size() - first);
    for (std::size_t j = 0; j < n; ++j) {
      const Plane p = planes[first + j];
      between[j] = PlaneBetween(*pairs[first + j].a, *pairs[first + j].b, p, rects[j]);
      if (between[j]) PrefetchRect(p.axis, p.layer, rects[j]);
    }
    for (std::size_t j = 0; j < n; ++j) {
      const Plane p = planes[first + j];
      hides[first + j] = between[j] && AllSolid(p.axis, p.layer, rects[j]) ? 1 : 0;
    }
  }
}

void VoxelGrid::Hidden(const std::vector<RegionPair>& pairs, std::vector<std::uint8_t>& hidden,
                       std::vector<Plane>* planes) const {
  hidden.assign(pairs.size(), 0);
  if (planes != nullptr) planes->assign(pairs.size(), {});
  std::size_t next = 0;
  // Starts the next pair with layers to walk in `w` (the others are visible).
  const auto fill = [&](Walk& w) {
    while (next < pairs.size()) {
      w.pair = next;
      w.a = pairs[next].a;
      w.b = pairs[next].b;
      ++next;
      if (BeginPair(w)) return true;
    }
    return false;
  };
  std::array<Walk, kLanes> lanes;
  int live = 0;
  while (live < kLanes && fill(lanes[live])) ++live;
  while (live > 0) {
    for (int i = 0; i < live;) {
      const int r = Step(lanes[i]);
      if (r == kGoing) {
        ++i;
        continue;
      }
      if (r == kHiddenPair) {
        hidden[lanes[i].pair] = 1;
        if (planes != nullptr) {
          (*planes)[lanes[i].pair] = {static_cast<std::int8_t>(lanes[i].k),
                                      static_cast<std::int32_t>(lanes[i].s)};
        }
      }
      if (fill(lanes[i])) {
        ++i;
      } else {
        lanes[i] = lanes[--live];  // the moved lane steps now
      }
    }
  }
}

}  // namespace collide::internal
