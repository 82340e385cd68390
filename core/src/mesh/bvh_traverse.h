// Depth-first traversals of a Bvh with SSE2 child tests (the x86-64
// baseline; no -march flags), on an explicit stack bounded by kBvhStackSize
// (bvh.h says why it cannot overflow).
#ifndef COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_
#define COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_

#include <emmintrin.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "collide/shapes.h"
#include "mesh/bvh.h"

namespace collide::internal {

// A ray set up for conservative float slab tests. The float origin is the
// double origin rounded; the slab test subtracts o_hi (>= the true origin)
// from box minima and o_lo (<= it) from maxima, which tests boxes widened by
// the rounding, and the t interval it gets is widened by a relative 2^-20
// (three float roundings and the reciprocal's are below 2^-21) plus an
// absolute 1e-30 (subnormal results). So a box the exact ray meets always
// passes. A direction component below 1e-30 (after normalization) is
// replaced by 1e-30, keeping reciprocals finite (no inf * 0 = NaN); the
// replaced ray drifts from the true one by at most 1e-30 * t_bound along that
// axis, added to the origin's widening. t is world distance along the unit
// direction.
inline constexpr float kInfinityF = std::numeric_limits<float>::infinity();

struct RayBoxes {
  __m128 o_lo[3], o_hi[3], inv[3];
};

// t_bound: no queried point is farther than this from the origin.
inline RayBoxes SetUpRayBoxes(const Vec3& origin, const Vec3& unit, double t_bound) {
  RayBoxes r;
  for (int k = 0; k < 3; ++k) {
    double d = unit[k];
    double drift = 0.0;
    if (std::fabs(d) < 1e-30) d = 1e-30, drift = 1e-30 * t_bound * 1.01;
    // o +- drift as floats at least drift away from o (o + drift in double
    // can round back to o when drift is below o's ulp).
    const double o = origin[k];
    float lo = RoundDown(o - drift), hi = RoundUp(o + drift);
    while (o - static_cast<double>(lo) < drift) lo = std::nextafter(lo, -kInfinityF);
    while (static_cast<double>(hi) - o < drift) hi = std::nextafter(hi, kInfinityF);
    r.o_lo[k] = _mm_set1_ps(lo);
    r.o_hi[k] = _mm_set1_ps(hi);
    r.inv[k] = _mm_set1_ps(static_cast<float>(1.0 / d));
  }
  return r;
}

// Lanes of `node` whose box the ray meets within [0, t_max] (bit i for child
// i), and each lane's entry distance (a lower bound) in `t_near`.
inline int HitChildren(const BvhNode& node, const RayBoxes& r, __m128 t_max, __m128& t_near) {
  const __m128 min_x = _mm_load_ps(node.min_x), max_x = _mm_load_ps(node.max_x);
  const __m128 min_y = _mm_load_ps(node.min_y), max_y = _mm_load_ps(node.max_y);
  const __m128 min_z = _mm_load_ps(node.min_z), max_z = _mm_load_ps(node.max_z);
  const __m128 ax = _mm_mul_ps(_mm_sub_ps(min_x, r.o_hi[0]), r.inv[0]);
  const __m128 bx = _mm_mul_ps(_mm_sub_ps(max_x, r.o_lo[0]), r.inv[0]);
  const __m128 ay = _mm_mul_ps(_mm_sub_ps(min_y, r.o_hi[1]), r.inv[1]);
  const __m128 by = _mm_mul_ps(_mm_sub_ps(max_y, r.o_lo[1]), r.inv[1]);
  const __m128 az = _mm_mul_ps(_mm_sub_ps(min_z, r.o_hi[2]), r.inv[2]);
  const __m128 bz = _mm_mul_ps(_mm_sub_ps(max_z, r.o_lo[2]), r.inv[2]);
  __m128 near = _mm_max_ps(_mm_max_ps(_mm_min_ps(ax, bx), _mm_min_ps(ay, by)),
                           _mm_max_ps(_mm_min_ps(az, bz), _mm_setzero_ps()));
  __m128 far =
      _mm_min_ps(_mm_min_ps(_mm_max_ps(ax, bx), _mm_max_ps(ay, by)), _mm_min_ps(_mm_max_ps(az, bz), t_max));
  // near >= 0 here, so near * (1 - rel) lowers it; far * (1 + rel) raises a
  // positive far, and a negative far means the box is behind the origin.
  near = _mm_sub_ps(_mm_mul_ps(near, _mm_set1_ps(1.0f - 0x1p-20f)), _mm_set1_ps(1e-30f));
  far = _mm_add_ps(_mm_mul_ps(far, _mm_set1_ps(1.0f + 0x1p-20f)), _mm_set1_ps(1e-30f));
  t_near = near;
  return _mm_movemask_ps(_mm_cmple_ps(near, far)) & ((1 << node.num_children) - 1);
}

// Lanes of `node` whose box overlaps the box [lo, hi] (closed).
inline int OverlapChildren(const BvhNode& node, const __m128 lo[3], const __m128 hi[3]) {
  __m128 ok =
      _mm_and_ps(_mm_cmple_ps(_mm_load_ps(node.min_x), hi[0]), _mm_cmpge_ps(_mm_load_ps(node.max_x), lo[0]));
  ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_load_ps(node.min_y), hi[1]));
  ok = _mm_and_ps(ok, _mm_cmpge_ps(_mm_load_ps(node.max_y), lo[1]));
  ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_load_ps(node.min_z), hi[2]));
  ok = _mm_and_ps(ok, _mm_cmpge_ps(_mm_load_ps(node.max_z), lo[2]));
  return _mm_movemask_ps(ok) & ((1 << node.num_children) - 1);
}

// Squared gap between each child box and the box [lo, hi], a lower bound
// (float rounding leaves it at most a few ulp high: scaled down by 2^-20).
inline __m128 GapSquared(const BvhNode& node, const __m128 lo[3], const __m128 hi[3]) {
  const __m128 zero = _mm_setzero_ps();
  auto gap = [&](const float* mn, const float* mx, int k) {
    const __m128 g = _mm_max_ps(_mm_sub_ps(_mm_load_ps(mn), hi[k]), _mm_sub_ps(lo[k], _mm_load_ps(mx)));
    const __m128 p = _mm_max_ps(g, zero);
    return _mm_mul_ps(p, p);
  };
  const __m128 sum = _mm_add_ps(_mm_add_ps(gap(node.min_x, node.max_x, 0), gap(node.min_y, node.max_y, 1)),
                                gap(node.min_z, node.max_z, 2));
  return _mm_mul_ps(sum, _mm_set1_ps(1.0f - 0x1p-20f));
}

// A stack entry: a node (count == 0) or a leaf, and a lower bound of what it
// can hold (entry distance, gap).
struct BvhStackEntry {
  float bound;
  std::uint32_t ref;
  std::uint32_t count;
};

// Pushes the lanes of `mask` in decreasing `bounds` order (so the nearest is
// popped first).
inline void PushSorted(const BvhNode& node, int mask, __m128 bounds, BvhStackEntry* stack, int& top) {
  alignas(16) float b[4];
  _mm_store_ps(b, bounds);
  BvhStackEntry e[4];
  int n = 0;
  for (int m = mask; m != 0; m &= m - 1) {
    const int i = __builtin_ctz(static_cast<unsigned>(m));
    BvhStackEntry entry{b[i], node.child[i], node.count[i]};
    int j = n++;
    while (j > 0 && e[j - 1].bound < entry.bound) e[j] = e[j - 1], --j;  // descending.
    e[j] = entry;
  }
  for (int j = 0; j < n; ++j) stack[top++] = e[j];
}

// Visits, nearest box first, every leaf whose box the ray meets within
// [0, visitor.TMax()] (re-read after every leaf, so a closest-hit visitor
// prunes by its best hit). visitor.Leaf(first, count) returns true to stop.
template <typename Visitor>
void TraverseRay(const Bvh& bvh, const RayBoxes& r, Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  BvhStackEntry stack[kBvhStackSize];
  int top = 0;
  stack[top++] = {0.0f, 0, 0};
  float t_max = visitor.TMax();
  while (top > 0) {
    const BvhStackEntry e = stack[--top];
    if (e.bound > t_max) continue;
    if (e.count != 0) {
      if (visitor.Leaf(e.ref, e.count)) return;
      t_max = visitor.TMax();
      continue;
    }
    const BvhNode& node = bvh.nodes[e.ref];
    __m128 near;
    const int mask = HitChildren(node, r, _mm_set1_ps(t_max), near);
    if (mask != 0) PushSorted(node, mask, near, stack, top);
  }
}

// Visits every leaf whose box overlaps [lo, hi]; Leaf returns true to stop.
template <typename Visitor>
void TraverseBox(const Bvh& bvh, const __m128 lo[3], const __m128 hi[3], Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  std::uint32_t stack[kBvhStackSize];
  std::uint8_t counts[kBvhStackSize];
  int top = 0;
  stack[top] = 0, counts[top++] = 0;
  while (top > 0) {
    --top;
    const std::uint32_t ref = stack[top];
    if (counts[top] != 0) {
      if (visitor.Leaf(ref, counts[top])) return;
      continue;
    }
    const BvhNode& node = bvh.nodes[ref];
    for (int m = OverlapChildren(node, lo, hi); m != 0; m &= m - 1) {
      const int i = __builtin_ctz(static_cast<unsigned>(m));
      stack[top] = node.child[i], counts[top++] = node.count[i];
    }
  }
}

// Branch and bound: visits leaves in increasing order of their boxes' gap to
// [lo, hi], skipping any whose squared gap exceeds visitor.Bound2() (re-read
// after every leaf).
template <typename Visitor>
void TraverseNearest(const Bvh& bvh, const __m128 lo[3], const __m128 hi[3], Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  BvhStackEntry stack[kBvhStackSize];
  int top = 0;
  stack[top++] = {0.0f, 0, 0};
  float bound2 = visitor.Bound2();
  while (top > 0) {
    const BvhStackEntry e = stack[--top];
    if (e.bound > bound2) continue;
    if (e.count != 0) {
      visitor.Leaf(e.ref, e.count);
      bound2 = visitor.Bound2();
      continue;
    }
    const BvhNode& node = bvh.nodes[e.ref];
    const __m128 gap2 = GapSquared(node, lo, hi);
    const int mask =
        _mm_movemask_ps(_mm_cmple_ps(gap2, _mm_set1_ps(bound2))) & ((1 << node.num_children) - 1);
    if (mask != 0) PushSorted(node, mask, gap2, stack, top);
  }
}

// [lo, hi] as float lanes rounded outward.
inline void BoxLanes(const Vec3& lo, const Vec3& hi, __m128 out_lo[3], __m128 out_hi[3]) {
  for (int k = 0; k < 3; ++k) {
    out_lo[k] = _mm_set1_ps(RoundDown(lo[k]));
    out_hi[k] = _mm_set1_ps(RoundUp(hi[k]));
  }
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_
