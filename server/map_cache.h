// The meshes of map files, shared by the worlds made from the same file:
// a replica running 64 matches on one map holds one mesh and BVH instead of
// 64 (198 KB each for OpenArena's aggressor, 3,249 triangles: one fits the
// L2 cache, 64 do not), and the matches' moves and shots traverse one BVH
// that stays in the caches instead of 64 that evict each other (a 64-player
// match's moves 27% slower with 32 copies than with one, 32 matches
// interleaved in process). A mesh lives while a world holds it. Thread-safe.
// The world service keys meshes by tenant too (MapLoaderFor), so tenants
// never share one: a tenant's creation costs the same whatever others hold.
#ifndef COLLIDE_SERVER_MAP_CACHE_H_
#define COLLIDE_SERVER_MAP_CACHE_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "collide/mesh.h"

namespace collide::server {

class MapCache {
 public:
  using Load = std::function<absl::StatusOr<MeshData>()>;

  // The mesh cached under `key` while any world holds it; otherwise `load`ed
  // and built (outside the lock: other maps are served meanwhile; two
  // concurrent first loads of one key both build, the first cached wins).
  // A failed load is returned and not cached. The key must name everything
  // the mesh depends on (file, map inside it, categories, triangle cap, the file's size
  // and modification time).
  absl::StatusOr<std::shared_ptr<const TriangleMesh>> Get(const std::string& key, const Load& load);

  // Keys whose mesh is still held (tests).
  std::size_t live() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::weak_ptr<const TriangleMesh>> meshes_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_MAP_CACHE_H_
