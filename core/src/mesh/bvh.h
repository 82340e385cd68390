// The bounding volume hierarchy of a TriangleMesh: 8-wide nodes whose child
// boxes are stored as float lanes (structure of arrays), so that two SSE2
// instructions test an axis of all eight children. Boxes are rounded outward
// from the double triangles, so a float test never misses a triangle.
#ifndef COLLIDE_CORE_SRC_MESH_BVH_H_
#define COLLIDE_CORE_SRC_MESH_BVH_H_

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "collide/math.h"
#include "mesh/huge_page_allocator.h"

namespace collide::internal {

// Children per node. Eight rather than four: a ray visits fewer levels, so
// fewer dependent node loads (docs/performance.md, "Mesh rays").
inline constexpr int kBvhWidth = 8;
// Leaves hold at most this many triangles.
inline constexpr int kBvhMaxLeafSize = 4;
// Depth bound, in levels of the tree (root = 1). The build uses binned SAH
// splits down to kBvhSahDepth levels and object-median splits below: a
// median split node halves its largest range until it has kBvhWidth, so
// each holds at most ceil(n / 8) of its n triangles, and 2^29 triangles
// (kMaxMeshTriangles) need at most 10 more levels. Hence depth <=
// kBvhSahDepth + 10 = 42 < kBvhMaxDepth, whatever the geometry.
inline constexpr int kBvhSahDepth = 32;
inline constexpr int kBvhMaxDepth = 50;
// A depth-first traversal pops one node and pushes at most kBvhWidth
// children, so its stack never holds more than 7 * depth + 1 entries:
// 7 * 50 + 1 = 351.
inline constexpr int kBvhStackSize = (kBvhWidth - 1) * kBvhMaxDepth + 1;

// A child reference: a node index, or a leaf as its first entry of
// Bvh::triangles | its triangle count (1 to kBvhMaxLeafSize) << kLeafShift.
// Packed at build time, so that a traversal pushes it as it is.
inline constexpr int kLeafShift = 29;  // kMaxMeshTriangles = 2^29 keeps indices below.
inline constexpr std::uint32_t kLeafIndexMask = (1u << kLeafShift) - 1;
inline std::uint32_t LeafCount(std::uint32_t ref) { return ref >> kLeafShift; }
inline std::uint32_t LeafFirst(std::uint32_t ref) { return ref & kLeafIndexMask; }

struct alignas(64) BvhNode {
  // Child boxes, lane i for child i. Unused lanes (i >= num_children) hold
  // the empty box min = +inf, max = -inf, which no ray slab test passes
  // (bvh_traverse.h), so the ray traversal needs no lane mask.
  float min_x[kBvhWidth], min_y[kBvhWidth], min_z[kBvhWidth];
  float max_x[kBvhWidth], max_y[kBvhWidth], max_z[kBvhWidth];
  std::uint32_t child[kBvhWidth];  // child references, as above.
  std::uint8_t num_children;
};
static_assert(sizeof(BvhNode) == 256);

// A queryable triangle: vertex indices and its index in MeshData::triangles.
struct BvhTriangle {
  std::uint32_t v[3];
  std::uint32_t id;
};

struct Bvh {
  // nodes[0] is the root; empty mesh: none.
  std::vector<BvhNode, HugePageAllocator<BvhNode>> nodes;
  std::vector<BvhTriangle, HugePageAllocator<BvhTriangle>> triangles;  // in leaf order.
  int depth = 0;                                                       // levels.
};

// Builds the BVH of `triangles` (all valid and non-degenerate) over
// `vertices`. O(n log n): binned SAH (32 bins, largest centroid axis).
Bvh BuildBvh(const std::vector<Vec3>& vertices, std::vector<BvhTriangle> triangles);

// The largest float <= x and the smallest float >= x (x not NaN; beyond the
// float range they are -/+infinity or -/+FLT_MAX). The one-ulp steps move
// the bits (no libm call: the ray setup does six of these per ray), and both
// candidates are computed then selected: whether x rounded up or down is a
// coin toss a branch would mispredict.
inline float NextFloatDown(float f) {
  const std::uint32_t b = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t stepped = b - 1 + 2 * (b >> 31);  // b - 1 above 0, b + 1 below.
  return f == 0.0f ? -std::numeric_limits<float>::denorm_min() : std::bit_cast<float>(stepped);
}
inline float RoundDown(double x) {
  const float f = static_cast<float>(x), down = NextFloatDown(f);
  return static_cast<double>(f) > x ? down : f;
}
inline float RoundUp(double x) { return -RoundDown(-x); }
// Both at once, converting x once (the ray setup does this per axis).
inline void RoundOutward(double x, float& lo, float& hi) {
  const float f = static_cast<float>(x), down = NextFloatDown(f), up = -NextFloatDown(-f);
  const double back = static_cast<double>(f);
  lo = back > x ? down : f;
  hi = back < x ? up : f;
}

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_MESH_BVH_H_
