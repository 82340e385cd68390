// An allocator for the BVH arrays: blocks of at least 2 MiB are aligned to
// 2 MiB and advised MADV_HUGEPAGE (Linux; elsewhere plain aligned blocks),
// so a large mesh's nodes and leaf records sit on huge pages once touched.
// Why: a query on a random spot of a mesh far larger than the caches walks
// some ten dependent node loads and a leaf, each a TLB miss on 4 KB pages
// (perf on the 1M-triangle terrain's capsule overlaps: 56 MB of mesh and
// BVH, 14,000 pages; the host's transparent huge pages are `madvise` only).
// Only the whole 2 MiB extents inside the block are eligible, so the block
// holds no more resident memory than a plain one.
#ifndef COLLIDE_CORE_SRC_MESH_HUGE_PAGE_ALLOCATOR_H_
#define COLLIDE_CORE_SRC_MESH_HUGE_PAGE_ALLOCATOR_H_

#include <cstddef>

namespace collide::internal {

// A block of `bytes` (at least 64-byte aligned); throws std::bad_alloc.
void* AllocateHugePageBlock(std::size_t bytes);
void FreeHugePageBlock(void* p);

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(AllocateHugePageBlock(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) { FreeHugePageBlock(p); }
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

}  // namespace collide::internal

#endif  // COLLIDE_CORE_SRC_MESH_HUGE_PAGE_ALLOCATOR_H_
