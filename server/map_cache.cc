#include "server/map_cache.h"

#include <utility>

namespace collide::server {

absl::StatusOr<std::shared_ptr<const TriangleMesh>> MapCache::Get(const std::string& key, const Load& load) {
  {
    std::lock_guard lock(mu_);
    if (auto it = meshes_.find(key); it != meshes_.end()) {
      if (std::shared_ptr<const TriangleMesh> mesh = it->second.lock()) return mesh;
    }
  }
  absl::StatusOr<MeshData> data = load();
  if (!data.ok()) return data.status();
  auto built = std::make_shared<const TriangleMesh>(*std::move(data));
  std::lock_guard lock(mu_);
  std::erase_if(meshes_, [](const auto& entry) { return entry.second.expired(); });
  std::weak_ptr<const TriangleMesh>& slot = meshes_[key];
  if (std::shared_ptr<const TriangleMesh> first = slot.lock()) return first;
  slot = built;
  return built;
}

std::size_t MapCache::live() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (const auto& entry : meshes_) n += entry.second.expired() ? 0 : 1;
  return n;
}

}  // namespace collide::server
