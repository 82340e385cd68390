#include "mesh/huge_page_allocator.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace collide::internal {
namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;
}  // namespace

void* AllocateHugePageBlock(std::size_t bytes) {
  const bool huge = bytes >= kHugePage;
  void* p = nullptr;
  if (posix_memalign(&p, huge ? kHugePage : 64, bytes == 0 ? 1 : bytes) != 0) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
  // Advice only: a kernel without THP refuses it and the block stays on 4 KB
  // pages. Page-aligned start (2 MiB), length rounded down to whole pages.
  if (huge) madvise(p, bytes / kPage * kPage, MADV_HUGEPAGE);
#endif
  return p;
}

void FreeHugePageBlock(void* p) { std::free(p); }

}  // namespace collide::internal
