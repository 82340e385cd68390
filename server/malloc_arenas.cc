#include "server/malloc_arenas.h"

#include <malloc.h>

#include <cstdlib>

namespace collide::server {

std::string LimitMallocArenas() {
  if (const char* env = std::getenv("MALLOC_ARENA_MAX"); env != nullptr && *env != '\0') {
    return std::string(env) + " (MALLOC_ARENA_MAX)";
  }
  // Sanitizers replace malloc and answer mallopt 0 or -1 without doing it.
  if (mallopt(M_ARENA_MAX, kMallocArenaMax) != 1) return "allocator default (mallopt refused)";
  return std::to_string(kMallocArenaMax);
}

}  // namespace collide::server
