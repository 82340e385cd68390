#include "server/world_registry.h"

#include "collide/mesh_data.h"
#include "spdlog/spdlog.h"

namespace collide::server {

std::string CheckWorldLimits(const WorldLimits& l) {
  if (l.max_triangles_per_world < 0) return "max_triangles_per_world must be >= 0";
  if (l.max_bodies_per_world < 1) return "max_bodies_per_world must be >= 1";
  if (l.max_parts_per_body < 1) return "max_parts_per_body must be >= 1";
  if (l.max_history_ticks < 1) return "max_history_ticks must be >= 1";
  if (l.max_worlds < 0) return "max_worlds must be >= 0";
  if (l.max_worlds_per_tenant < 0) return "max_worlds_per_tenant must be >= 0";
  if (l.memory_budget_bytes < 0) return "world_memory_budget_bytes must be >= 0";
  if (l.idle_ttl < absl::ZeroDuration()) return "world_idle_ttl must be >= 0";
  return "";
}

// Per triangle: its indices, and a generous bound on the BVH's copy of it
// and its share of nodes (a binary tree has under two nodes per leaf).
std::int64_t EstimateStaticBytes(std::int64_t vertices, std::int64_t triangles) {
  return vertices * static_cast<std::int64_t>(sizeof(Vec3)) +
         triangles * (static_cast<std::int64_t>(sizeof(TriangleIndices)) + 128 + 2 * 64) + 4096;
}

// Per body its state and tree node, per part its shape and pose, in the
// snapshot the frame adds (measured afterwards).
std::int64_t EstimateFrameBytes(std::int64_t bodies, std::int64_t parts) {
  return bodies * 256 + parts * static_cast<std::int64_t>(sizeof(Shape) + sizeof(Pose)) + 1024;
}

std::int64_t WorldRegistry::NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

bool WorldRegistry::Expired(const WorldEntry& e, std::int64_t now_ns) const {
  if (limits_.idle_ttl == absl::ZeroDuration()) return false;
  return now_ns - e.last_used_ns.load(std::memory_order_relaxed) > absl::ToInt64Nanoseconds(limits_.idle_ttl);
}

std::vector<std::shared_ptr<WorldEntry>> WorldRegistry::TakeIdleLocked(std::int64_t now_ns) {
  std::vector<std::shared_ptr<WorldEntry>> idle;
  for (auto it = worlds_.begin(); it != worlds_.end();) {
    if (!Expired(*it->second, now_ns)) {
      ++it;
      continue;
    }
    spdlog::info("world {} evicted after {} idle (latest_tick={})", it->second->id,
                 absl::FormatDuration(limits_.idle_ttl), it->second->world.latest_tick().value_or(-1));
    idle.push_back(std::move(it->second));
    it = worlds_.erase(it);
    evicted_.fetch_add(1, std::memory_order_relaxed);
  }
  return idle;
}

// Waits for the calls inside the world (its lock), then uncharges it for
// good: a frame that was running when the world left the map charged its
// bytes before this, and a later one sees `retired` and charges nothing.
void WorldRegistry::Retire(const std::shared_ptr<WorldEntry>& entry) {
  std::unique_lock lock(entry->mu);
  entry->retired = true;
  used_bytes_ -= entry->charged_bytes.load();
}

void WorldRegistry::EvictIdle() {
  std::vector<std::shared_ptr<WorldEntry>> idle;
  {
    std::unique_lock lock(mu_);
    idle = TakeIdleLocked(NowNs());
  }
  for (const auto& e : idle) Retire(e);
}

std::string WorldRegistry::Reserve(const std::string& owner, std::int64_t bytes) {
  EvictIdle();
  std::unique_lock lock(mu_);
  const int worlds = static_cast<int>(worlds_.size()) + reserved_worlds_;
  if (worlds >= limits_.max_worlds) {
    return "this replica holds " + std::to_string(worlds) + " worlds; --max_worlds is " +
           std::to_string(limits_.max_worlds);
  }
  if (limits_.max_worlds_per_tenant > 0) {
    int own = 0;
    for (auto it = worlds_.lower_bound(Key{owner, ""}); it != worlds_.end() && it->first.first == owner;
         ++it) {
      ++own;
    }
    if (const auto r = reserved_by_owner_.find(owner); r != reserved_by_owner_.end()) own += r->second;
    if (own >= limits_.max_worlds_per_tenant) {
      return "this tenant holds " + std::to_string(own) + " worlds; --max_worlds_per_tenant is " +
             std::to_string(limits_.max_worlds_per_tenant);
    }
  }
  const std::int64_t used = used_bytes_.load();
  if (used + bytes > limits_.memory_budget_bytes) {
    return "the world needs an estimated " + std::to_string(bytes) + " bytes and worlds hold " +
           std::to_string(used) + "; --world_memory_budget_bytes is " +
           std::to_string(limits_.memory_budget_bytes);
  }
  used_bytes_ += bytes;
  ++reserved_worlds_;
  ++reserved_by_owner_[owner];
  return "";
}

void WorldRegistry::EndReservationLocked(const std::string& owner) {
  --reserved_worlds_;
  if (auto it = reserved_by_owner_.find(owner); --it->second == 0) reserved_by_owner_.erase(it);
}

void WorldRegistry::Release(const std::string& owner, std::int64_t bytes) {
  std::unique_lock lock(mu_);
  used_bytes_ -= bytes;
  EndReservationLocked(owner);
}

WorldRegistry::InsertResult WorldRegistry::Insert(std::shared_ptr<WorldEntry> entry, std::int64_t reserved) {
  std::unique_lock lock(mu_);
  EndReservationLocked(entry->owner);
  Key key{entry->owner, entry->id};
  const std::int64_t extra = entry->charged_bytes.load() - reserved;
  if (worlds_.contains(key) || used_bytes_.load() + extra > limits_.memory_budget_bytes) {
    used_bytes_ -= reserved;
    return worlds_.contains(key) ? InsertResult::kExists : InsertResult::kOverBudget;
  }
  used_bytes_ += extra;
  entry->last_used_ns = NowNs();
  worlds_.emplace(std::move(key), std::move(entry));
  created_.fetch_add(1, std::memory_order_relaxed);
  return InsertResult::kInserted;
}

std::shared_ptr<WorldEntry> WorldRegistry::Find(const std::string& owner, const std::string& id) {
  std::shared_lock lock(mu_);
  auto it = worlds_.find(Key{owner, id});
  if (it == worlds_.end()) return nullptr;
  const std::int64_t now = NowNs();
  if (Expired(*it->second, now)) return nullptr;  // Erased by the next sweep.
  it->second->last_used_ns.store(now, std::memory_order_relaxed);
  return it->second;
}

bool WorldRegistry::Erase(const std::string& owner, const std::string& id) {
  EvictIdle();
  std::shared_ptr<WorldEntry> entry;
  {
    std::unique_lock lock(mu_);
    auto it = worlds_.find(Key{owner, id});
    if (it == worlds_.end()) return false;
    entry = std::move(it->second);
    worlds_.erase(it);
  }
  Retire(entry);
  deleted_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

WorldRegistryStats WorldRegistry::Stats() {
  std::vector<std::shared_ptr<WorldEntry>> entries;
  {
    std::shared_lock lock(mu_);
    entries.reserve(worlds_.size());
    for (const auto& [key, entry] : worlds_) entries.push_back(entry);
  }
  WorldRegistryStats stats{.worlds = static_cast<std::int64_t>(entries.size()),
                           .used_bytes = used_bytes_.load(),
                           .created = created_.load(std::memory_order_relaxed),
                           .deleted = deleted_.load(std::memory_order_relaxed),
                           .evicted = evicted_.load(std::memory_order_relaxed)};
  for (const auto& entry : entries) {
    stats.triangles += entry->triangles;
    std::shared_lock lock(entry->mu);
    stats.bodies += static_cast<std::int64_t>(entry->world.body_count());
  }
  return stats;
}

std::vector<std::shared_ptr<WorldEntry>> WorldRegistry::List(const std::string& owner) {
  EvictIdle();
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<WorldEntry>> out;
  for (auto it = worlds_.lower_bound(Key{owner, ""}); it != worlds_.end() && it->first.first == owner; ++it) {
    out.push_back(it->second);
  }
  return out;
}

std::string WorldRegistry::Charge(WorldEntry& entry, std::int64_t delta, bool may_exceed) {
  if (entry.retired) return "";  // Its bytes go with it.
  if (delta > 0 && !may_exceed) {
    std::int64_t used = used_bytes_.load();
    do {
      if (used + delta > limits_.memory_budget_bytes) {
        return "world " + entry.id + " needs an estimated " + std::to_string(delta) +
               " more bytes and worlds hold " + std::to_string(used) + "; --world_memory_budget_bytes is " +
               std::to_string(limits_.memory_budget_bytes);
      }
    } while (!used_bytes_.compare_exchange_weak(used, used + delta));
  } else {
    used_bytes_ += delta;
  }
  entry.charged_bytes += delta;
  return "";
}

}  // namespace collide::server
