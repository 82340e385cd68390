// LimitMallocArenas: the cap holds for the threads started after it, and a
// MALLOC_ARENA_MAX from the environment is left to glibc and named.
#include "server/malloc_arenas.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <stdio.h>

#include <barrier>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "support/case_count.h"

namespace collide::server {
namespace {

// The arenas glibc has made: malloc_info writes one <heap nr="i"> each.
int ArenaCount() {
  char* text = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&text, &size);
  malloc_info(0, out);
  fclose(out);
  const std::string xml(text, size);
  free(text);
  int heaps = 0;
  for (std::size_t at = xml.find("<heap nr="); at != std::string::npos; at = xml.find("<heap nr=", at + 1)) {
    ++heaps;
  }
  return heaps;
}

TEST(MallocArenasTest, ThreadsStartedAfterTheCapShareAtMostTwoArenas) {
  unsetenv("MALLOC_ARENA_MAX");
  const std::string limit = LimitMallocArenas();
  if (limit != "2") {
    // Only a sanitizer's allocator refuses mallopt (and glibc's arenas then
    // hold nothing of ours to count).
    EXPECT_TRUE(testing::kSanitized) << limit;
    EXPECT_EQ(limit, "allocator default (mallopt refused)");
    return;
  }
  // A thread's first malloc takes a fresh arena while there are fewer than
  // the cap (glibc's default: 8 per core) and none is free, so 16 threads
  // alive together, each holding blocks, make 16 arenas without it (measured
  // on this 2-core machine; an arena is freed for reuse when its thread
  // exits, hence the second barrier).
  constexpr int kThreads = 16;
  std::barrier start(kThreads);
  std::barrier held(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&start, &held] {
      start.arrive_and_wait();
      std::vector<void*> blocks;
      for (int i = 0; i < 1000; ++i) blocks.push_back(malloc(64 + i % 512));
      held.arrive_and_wait();
      for (void* b : blocks) free(b);
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_GE(ArenaCount(), 1);
  EXPECT_LE(ArenaCount(), kMallocArenaMax);
}

TEST(MallocArenasTest, TheEnvironmentWinsAndIsNamed) {
  setenv("MALLOC_ARENA_MAX", "4", 1);
  EXPECT_EQ(LimitMallocArenas(), "4 (MALLOC_ARENA_MAX)");
  unsetenv("MALLOC_ARENA_MAX");
}

}  // namespace
}  // namespace collide::server
