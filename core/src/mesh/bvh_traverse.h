// Depth-first traversals of a Bvh with the child tests in eight float lanes
// (a Float8), on an explicit stack bounded by kBvhStackSize (bvh.h
// says why it cannot overflow).
#ifndef COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_
#define COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "collide/shapes.h"
#include "mesh/bvh.h"
#include "simd/float8.h"
#include "simd/prefetch.h"

namespace collide::internal {

// A ray set up for conservative float slab tests (Williams et al., "An
// Efficient and Robust Ray-Box Intersection Algorithm", 2005: entry and exit
// planes picked once per ray by the direction's signs). The float origin is
// the double origin rounded down (o_lo) and up (o_hi); the slab test
// subtracts o_hi from box minima and o_lo from maxima, which tests boxes
// widened by the rounding, and scales entry and exit times by 1 -+ 2^-20.
// So a box the exact ray meets always passes. A direction component below 1e-30 (after normalization) is
// replaced by 1e-30, keeping reciprocals finite (no inf * 0 = NaN); the
// replaced ray drifts from the true one by at most 1e-30 * t_bound along that
// axis, added to the origin's widening. t is world distance along the unit
// direction.
struct RayBoxes {
  // Per axis: the offset (in floats, from BvhNode::min_x) of the plane the
  // ray enters through and of the one it leaves through (min or max by the
  // direction's sign), the origin to subtract from each (o_hi from a min
  // plane, o_lo from a max plane: the widened slab), and the reciprocal
  // scaled by 1 - 2^-20 (entry) and 1 + 2^-20 (exit). A positive product
  // then errs low at entry and high at exit (three float roundings stay
  // below 2^-21); a negative one keeps its sign, which is all that matters
  // below 0.
  int near_plane[3], far_plane[3];
  float o_near[3], o_far[3], inv_near[3], inv_far[3];
};

// t_bound: no queried point is farther than this from the origin. `widen`
// (>= 0 per axis) grows every box by that much: the boxes a box of those
// half extents about the origin meets when swept along the ray (a shape
// cast's broadphase).
inline RayBoxes SetUpRayBoxes(const Vec3& origin, const Vec3& unit, double t_bound, const Vec3& widen = {}) {
  RayBoxes r;
  for (int k = 0; k < 3; ++k) {
    double d = unit[k];
    double drift = widen[k];
    if (std::fabs(d) < 1e-30) d = 1e-30, drift += 1e-30 * t_bound * 1.01;
    // o +- drift as floats at least drift away from o (o + drift in double
    // can round back to o when drift is below o's ulp).
    const double o = origin[k];
    float lo, hi;
    if (drift == 0.0) {
      RoundOutward(o, lo, hi);  // a ray cast's common case.
    } else {
      lo = RoundDown(o - drift), hi = RoundUp(o + drift);
      while (o - static_cast<double>(lo) < drift) lo = NextFloatDown(lo);
      while (static_cast<double>(hi) - o < drift) hi = -NextFloatDown(-hi);
    }
    const float inv = static_cast<float>(1.0 / d);
    // Picked by index, not by branches: a random direction's signs would
    // mispredict half of them.
    const int back = d < 0.0;
    const float o_pick[2] = {hi, lo};
    r.near_plane[k] = kBvhWidth * (k + 3 * back);
    r.far_plane[k] = kBvhWidth * (k + 3 * (1 - back));
    r.o_near[k] = o_pick[back];
    r.o_far[k] = o_pick[1 - back];
    r.inv_near[k] = inv * (1.0f - 0x1p-20f);
    r.inv_far[k] = inv * (1.0f + 0x1p-20f);
  }
  return r;
}

// A stack entry: a child reference (bvh.h), and a lower bound of what it
// can hold (entry distance, gap). 8 bytes, so that a push and the pop that
// follows it are one store and one load (no store-forwarding stall).
struct BvhStackEntry {
  float bound;
  std::uint32_t ref;  // a child reference (bvh.h).
};

// Pushes the lanes of `mask` but the nearest in decreasing `bounds` order
// (so the nearer are popped first) and returns the nearest, which the
// traversal visits next without a stack round trip. One or two hits, the
// common cases, take no sorting loop.
inline BvhStackEntry PushSortedKeepNearest(const BvhNode& node, int mask, const float* b, BvhStackEntry* stack,
                                           int& top) {
  int i = __builtin_ctz(static_cast<unsigned>(mask));
  BvhStackEntry first{b[i], node.child[i]};
  mask &= mask - 1;
  if (mask == 0) return first;
  i = __builtin_ctz(static_cast<unsigned>(mask));
  BvhStackEntry second{b[i], node.child[i]};
  mask &= mask - 1;
  if (second.bound < first.bound) std::swap(first, second);
  if (mask == 0) {
    stack[top++] = second;
    return first;
  }
  BvhStackEntry e[kBvhWidth] = {first, second};
  int n = 2;
  for (; mask != 0; mask &= mask - 1) {
    i = __builtin_ctz(static_cast<unsigned>(mask));
    const BvhStackEntry entry{b[i], node.child[i]};
    int j = n++;
    while (j > 0 && e[j - 1].bound > entry.bound) e[j] = e[j - 1], --j;  // ascending.
    e[j] = entry;
  }
  for (int j = n - 1; j > 0; --j) stack[top++] = e[j];
  return e[0];
}

// Starts loading what a child reference points at: a node's four cache
// lines, or a leaf's triangle records (at most 64 bytes, on at most two
// lines).
inline void PrefetchRef(const Bvh& bvh, std::uint32_t ref) {
  if (LeafCount(ref) != 0) {
    const char* p = reinterpret_cast<const char*>(&bvh.triangles[LeafFirst(ref)]);
    Prefetch(p);
    Prefetch(p + 63);
    return;
  }
  const char* p = reinterpret_cast<const char*>(&bvh.nodes[ref]);
  for (int line = 0; line < static_cast<int>(sizeof(BvhNode)); line += 64) Prefetch(p + line);
}

// Leaf record i's triangle, its vertices in the order of MeshData::triangles
// (so the same Triangle as TriangleMesh::triangle(id), without the load of
// the record by id, a cache miss of its own on a large mesh).
inline Triangle LeafTriangle(const Bvh& bvh, const std::vector<Vec3>& vertices, std::uint32_t i) {
  const BvhTriangle& t = bvh.triangles[i];
  return {vertices[t.v[0]], vertices[t.v[1]], vertices[t.v[2]]};
}

// Starts loading the vertices of a leaf's triangles before the first is
// tested, so that their cache misses overlap instead of stalling one triangle
// after the other (perf on the 1M-triangle terrain's capsule overlaps: the
// first vertex load and the record before it held 3/4 of the per-triangle
// filter's time).
inline void PrefetchLeafVertices(const Bvh& bvh, const std::vector<Vec3>& vertices, std::uint32_t first,
                                 std::uint32_t count) {
  for (std::uint32_t i = first; i < first + count; ++i)
    for (const std::uint32_t k : bvh.triangles[i].v)
      Prefetch(&vertices[k]);
}

// A box as floats rounded outward, what the box and nearest traversals test
// node boxes against.
struct FloatBox {
  float lo[3], hi[3];
};
inline FloatBox RoundedOutward(const Vec3& lo, const Vec3& hi) {
  FloatBox b;
  for (int k = 0; k < 3; ++k) b.lo[k] = RoundDown(lo[k]), b.hi[k] = RoundUp(hi[k]);
  return b;
}

static_assert(kBvhWidth == 8, "a Float8 holds a node's children");

// A RayBoxes with every value in all lanes, built once per traversal.
struct RayLanes {
  int near_plane[3], far_plane[3];
  Float8 o_near[3], o_far[3], inv_near[3], inv_far[3];
};
inline RayLanes Splat(const RayBoxes& r) {
  RayLanes l;
  for (int k = 0; k < 3; ++k) {
    l.near_plane[k] = r.near_plane[k], l.far_plane[k] = r.far_plane[k];
    l.o_near[k] = Splat8(r.o_near[k]), l.o_far[k] = Splat8(r.o_far[k]);
    l.inv_near[k] = Splat8(r.inv_near[k]), l.inv_far[k] = Splat8(r.inv_far[k]);
  }
  return l;
}

// Lanes of `node` whose box the ray meets within [0, t_max] (bit i for child
// i), and each lane's entry distance (a lower bound) in `t_near`.
inline int HitChildren(const BvhNode& node, const RayLanes& r, Float8 t_max, float* t_near) {
  const float* planes = node.min_x;
  Float8 near = Splat8(0.0f), far = t_max;
  for (int k = 0; k < 3; ++k) {
    near = Max(near, (Load8(planes + r.near_plane[k]) - r.o_near[k]) * r.inv_near[k]);
    far = Min(far, (Load8(planes + r.far_plane[k]) - r.o_far[k]) * r.inv_far[k]);
  }
  Store8(t_near, near);
  // + 1e-30: products that underflowed to 0 (subnormal range) never reject.
  // Unused lanes (bvh.h) fail: their near time is +inf or NaN, their far
  // time -inf or NaN.
  return MoveMask(near <= far + Splat8(1e-30f));
}

// A FloatBox with every bound in all lanes.
struct BoxLanes {
  Float8 lo[3], hi[3];
};
inline BoxLanes Splat(const FloatBox& b) {
  BoxLanes l;
  for (int k = 0; k < 3; ++k) l.lo[k] = Splat8(b.lo[k]), l.hi[k] = Splat8(b.hi[k]);
  return l;
}

// Lanes of `node` whose box overlaps the box (closed).
inline int OverlapChildren(const BvhNode& node, const BoxLanes& box) {
  Float8 ok = (Load8(node.min_x) <= box.hi[0]) & (Load8(node.max_x) >= box.lo[0]);
  ok = ok & (Load8(node.min_y) <= box.hi[1]);
  ok = ok & (Load8(node.max_y) >= box.lo[1]);
  ok = ok & (Load8(node.min_z) <= box.hi[2]);
  ok = ok & (Load8(node.max_z) >= box.lo[2]);
  return MoveMask(ok) & ((1 << node.num_children) - 1);
}

// Squared gap between each child box and the box, a lower bound (float
// rounding leaves it at most a few ulp high: scaled down by 2^-20).
inline Float8 GapSquared(const BvhNode& node, const BoxLanes& box) {
  const Float8 zero = Splat8(0.0f);
  auto gap = [&](const float* mn, const float* mx, int k) {
    const Float8 p = Max(Max(Load8(mn) - box.hi[k], box.lo[k] - Load8(mx)), zero);
    return p * p;
  };
  const Float8 sum =
      (gap(node.min_x, node.max_x, 0) + gap(node.min_y, node.max_y, 1)) + gap(node.min_z, node.max_z, 2);
  return sum * Splat8(1.0f - 0x1p-20f);
}

// Visits, nearest box first, every leaf whose box the ray meets within
// [0, visitor.TMax()] (re-read after every leaf, so a closest-hit visitor
// prunes by its best hit). visitor.Leaf(first, count) returns true to stop.
// kSorted = false visits the children in lane order instead, for a visitor
// that stops at any hit, where the sort does not pay, or that collects every
// hit.
// Every child the ray meets is prefetched as soon as the mask is known, so
// its load overlaps the sorting and the siblings' visits (perf: the node and
// leaf-record loads are a third of the ray time on the maps). The nearest
// too, though it is visited next: prefetching only the pushed ones saves
// instructions but costs time on mesh_bench's boxes scene.
template <bool kSorted = true, typename Visitor>
void TraverseRay(const Bvh& bvh, const RayBoxes& boxes, Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  const RayLanes r = Splat(boxes);
  BvhStackEntry stack[kBvhStackSize];
  int top = 0;
  BvhStackEntry cur{0.0f, 0};
  float t_max = visitor.TMax();
  for (;;) {
    if (LeafCount(cur.ref) != 0) {
      if (visitor.Leaf(LeafFirst(cur.ref), LeafCount(cur.ref))) return;
      t_max = visitor.TMax();
    } else {
      const BvhNode& node = bvh.nodes[cur.ref];
      float near[kBvhWidth];
      const int mask = HitChildren(node, r, Splat8(t_max), near);
      if (mask != 0) {
        for (int m = mask; m != 0; m &= m - 1)
          PrefetchRef(bvh, node.child[__builtin_ctz(static_cast<unsigned>(m))]);
        if constexpr (kSorted) {
          cur = PushSortedKeepNearest(node, mask, near, stack, top);
        } else {
          int m = mask;
          cur = {0.0f, node.child[__builtin_ctz(static_cast<unsigned>(m))]};
          for (m &= m - 1; m != 0; m &= m - 1) {
            stack[top++] = {0.0f, node.child[__builtin_ctz(static_cast<unsigned>(m))]};
          }
        }
        continue;
      }
    }
    // Next: the nearest pending entry still within reach.
    do {
      if (top == 0) return;
      cur = stack[--top];
    } while (cur.bound > t_max);
  }
}

// Visits every leaf whose box overlaps `float_box`; Leaf returns true to
// stop. Every overlapping child is prefetched as soon as the mask is known: on
// a tree far larger than the caches (mesh_bench's 1M-triangle terrain) the
// traversal otherwise stalls on the node loads.
template <typename Visitor>
void TraverseBox(const Bvh& bvh, const FloatBox& float_box, Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  const BoxLanes box = Splat(float_box);
  std::uint32_t stack[kBvhStackSize];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const std::uint32_t ref = stack[--top];
    if (LeafCount(ref) != 0) {
      if (visitor.Leaf(LeafFirst(ref), LeafCount(ref))) return;
      continue;
    }
    const BvhNode& node = bvh.nodes[ref];
    for (int m = OverlapChildren(node, box); m != 0; m &= m - 1) {
      const std::uint32_t child = node.child[__builtin_ctz(static_cast<unsigned>(m))];
      PrefetchRef(bvh, child);
      stack[top++] = child;
    }
  }
}

// Branch and bound: visits leaves in increasing order of their boxes' gap to
// `float_box`, skipping any whose squared gap exceeds visitor.Bound2()
// (re-read after every leaf).
template <typename Visitor>
void TraverseNearest(const Bvh& bvh, const FloatBox& float_box, Visitor& visitor) {
  if (bvh.nodes.empty()) return;
  const BoxLanes box = Splat(float_box);
  BvhStackEntry stack[kBvhStackSize];
  int top = 0;
  BvhStackEntry cur{0.0f, 0};
  float bound2 = visitor.Bound2();
  for (;;) {
    if (LeafCount(cur.ref) != 0) {
      visitor.Leaf(LeafFirst(cur.ref), LeafCount(cur.ref));
      bound2 = visitor.Bound2();
    } else {
      const BvhNode& node = bvh.nodes[cur.ref];
      const Float8 gap2 = GapSquared(node, box);
      const int mask = MoveMask(gap2 <= Splat8(bound2)) & ((1 << node.num_children) - 1);
      if (mask != 0) {
        float bounds[kBvhWidth];
        Store8(bounds, gap2);
        cur = PushSortedKeepNearest(node, mask, bounds, stack, top);
        continue;
      }
    }
    do {
      if (top == 0) return;
      cur = stack[--top];
    } while (cur.bound > bound2);
  }
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_MESH_BVH_TRAVERSE_H_
