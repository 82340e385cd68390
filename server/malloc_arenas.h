// The number of glibc malloc arenas, capped at startup.
#ifndef COLLIDE_SERVER_MALLOC_ARENAS_H_
#define COLLIDE_SERVER_MALLOC_ARENAS_H_

#include <string>

namespace collide::server {

// The arena cap used when the environment does not set one: glibc's default
// of up to 8 arenas per core let the packed phase of the container test peak
// at 413-526 MB and be OOM-killed under the 512 MiB limit; with 2, 323 MB
// (docs/operations.md, "Memory").
inline constexpr int kMallocArenaMax = 2;

// Caps glibc's malloc arenas at kMallocArenaMax with mallopt(M_ARENA_MAX),
// unless MALLOC_ARENA_MAX is set (glibc reads it itself, and it wins). Call
// before threads start: arenas are made as threads first contend. Returns
// what the startup line says: "2", "4 (MALLOC_ARENA_MAX)", or under a
// sanitizer's allocator "allocator default (mallopt refused)".
std::string LimitMallocArenas();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_MALLOC_ARENAS_H_
