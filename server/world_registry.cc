#include "server/world_registry.h"

#include <algorithm>
#include <variant>

#include "absl/strings/str_cat.h"
#include "collide/mesh_data.h"
#include "convert/world_calls.h"
#include "spdlog/spdlog.h"

namespace collide::server {

std::string CheckWorldLimits(const WorldLimits& l) {
  if (l.max_triangles_per_world < 0) return "max_triangles_per_world must be >= 0";
  if (l.max_primitive_statics_per_world < 0) return "max_primitive_statics_per_world must be >= 0";
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

// Per body its state and tree node (about 300 bytes measured), per part its
// shape and pose, in the snapshot the frame adds (measured afterwards): an
// upper bound, so that the budget is never passed.
std::int64_t EstimateFrameBytes(std::int64_t bodies, std::int64_t parts) {
  return bodies * 384 + parts * static_cast<std::int64_t>(sizeof(Shape) + sizeof(Pose)) + 1024;
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

std::string WorldRegistry::ReserveBytes(const std::string& owner, std::int64_t bytes) {
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

WorldReservation::~WorldReservation() {
  if (registry_ != nullptr) registry_->Release(owner_, bytes_);
}

namespace {

RequestError Exhausted(std::string message) {
  return {RequestError::Kind::kLimitExceeded, std::move(message)};
}

RequestError AlreadyExists(const std::string& id) {
  return {RequestError::Kind::kAlreadyExists, absl::StrCat("world \"", id, "\" already exists")};
}

}  // namespace

std::optional<RequestError> WorldRegistry::CheckCreate(std::int64_t history_ticks, std::size_t mesh_triangles,
                                                       std::size_t primitive_statics) const {
  if (history_ticks > limits_.max_history_ticks) {
    return Exhausted(absl::StrCat("history_ticks ", history_ticks, " is over --max_history_ticks ",
                                  limits_.max_history_ticks));
  }
  if (mesh_triangles > static_cast<std::size_t>(limits_.max_triangles_per_world)) {
    return Exhausted(absl::StrCat("the world's meshes hold ", mesh_triangles,
                                  " triangles; --max_triangles_per_world is ",
                                  limits_.max_triangles_per_world));
  }
  if (primitive_statics > static_cast<std::size_t>(limits_.max_primitive_statics_per_world)) {
    return Exhausted(absl::StrCat("the world has ", primitive_statics,
                                  " primitive (shape) statics; --max_primitive_statics_per_world is ",
                                  limits_.max_primitive_statics_per_world));
  }
  return std::nullopt;
}

int WorldRegistry::default_history_ticks() const {
  return std::min(WorldSettings{}.history_ticks, limits_.max_history_ticks);
}

std::optional<RequestError> WorldRegistry::Reserve(const std::string& owner, const std::string& id,
                                                   std::int64_t vertices, std::int64_t triangles,
                                                   WorldReservation& reservation, std::int64_t extra_bytes) {
  if (Find(owner, id) != nullptr) return AlreadyExists(id);
  const std::int64_t bytes = EstimateStaticBytes(vertices, triangles) + extra_bytes;
  if (std::string full = ReserveBytes(owner, bytes); !full.empty()) return Exhausted(std::move(full));
  reservation.registry_ = this;
  reservation.owner_ = owner;
  reservation.bytes_ = bytes;
  return std::nullopt;
}

std::optional<RequestError> WorldRegistry::NewWorld(const std::string& owner, const std::string& id,
                                                    const WorldSettings& settings,
                                                    const std::vector<StaticElement>& statics,
                                                    int static_elements,
                                                    std::shared_ptr<WorldEntry>& entry) const {
  const auto start = std::chrono::steady_clock::now();
  entry = std::make_shared<WorldEntry>(owner, id, World(settings, statics));
  entry->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The occluder grid (WorldSettings::visibility) is the world's too.
  entry->static_bytes += static_cast<std::int64_t>(entry->world.visibility_info().memory_bytes);
  entry->static_elements = static_elements;
  for (const StaticElement& e : statics) {
    if (const auto* mesh = std::get_if<std::shared_ptr<const TriangleMesh>>(&e.geometry)) {
      entry->triangles += static_cast<std::int64_t>((*mesh)->triangle_count());
      entry->degenerate_triangles += static_cast<std::int64_t>((*mesh)->degenerate_count());
      entry->static_bytes += static_cast<std::int64_t>((*mesh)->memory_bytes());
    } else if (const auto* hull = std::get_if<ConvexHull>(&std::get<Shape>(e.geometry))) {
      entry->static_bytes +=
          static_cast<std::int64_t>(hull->vertices.size() * sizeof(Vec3));  // The world's copy.
    }
    entry->static_bytes += static_cast<std::int64_t>(sizeof(StaticElement));
  }
  entry->charged_bytes = entry->static_bytes + static_cast<std::int64_t>(entry->world.history_bytes());
  if (entry->triangles > limits_.max_triangles_per_world) {  // Map files are counted once read.
    return Exhausted(absl::StrCat("the world's meshes and maps hold ", entry->triangles,
                                  " triangles; --max_triangles_per_world is ",
                                  limits_.max_triangles_per_world));
  }
  return std::nullopt;
}

std::optional<RequestError> WorldRegistry::Insert(std::shared_ptr<WorldEntry> entry,
                                                  WorldReservation& reservation) {
  const std::int64_t reserved = reservation.bytes_;
  reservation.registry_ = nullptr;  // Taken: ended here whatever happens.
  std::unique_lock lock(mu_);
  EndReservationLocked(entry->owner);
  Key key{entry->owner, entry->id};
  const std::int64_t extra = entry->charged_bytes.load() - reserved;
  if (worlds_.contains(key) || used_bytes_.load() + extra > limits_.memory_budget_bytes) {
    used_bytes_ -= reserved;
    if (worlds_.contains(key)) return AlreadyExists(entry->id);
    return Exhausted(absl::StrCat("the world holds ", entry->charged_bytes.load(),
                                  " bytes, over what is left of ", "--world_memory_budget_bytes ",
                                  limits_.memory_budget_bytes));
  }
  used_bytes_ += extra;
  entry->last_used_ns = NowNs();
  worlds_.emplace(std::move(key), std::move(entry));
  created_.fetch_add(1, std::memory_order_relaxed);
  return std::nullopt;
}

std::optional<RequestError> WorldRegistry::CheckBodyParts(int index, int parts) const {
  if (parts > limits_.max_parts_per_body) {
    return Exhausted(absl::StrCat("frame.bodies[", index, "].parts holds ", parts,
                                  " parts; --max_parts_per_body is ", limits_.max_parts_per_body));
  }
  return std::nullopt;
}

std::optional<RequestError> WorldRegistry::PushFrame(WorldEntry& entry, const Frame& frame,
                                                     std::int64_t parts, std::int64_t& oldest_tick) {
  std::unique_lock lock(entry.mu);
  World& world = entry.world;
  // Bodies after the frame (an invalid frame is rejected below anyway).
  std::int64_t bodies = static_cast<std::int64_t>(world.body_count());
  for (const BodyUpdate& u : frame.bodies) bodies += world.has_body(u.id) ? 0 : 1;
  for (std::int64_t id : frame.removals) bodies -= world.has_body(id) ? 1 : 0;
  if (bodies > limits_.max_bodies_per_world) {
    return Exhausted(absl::StrCat("the frame would make ", bodies, " bodies; --max_bodies_per_world is ",
                                  limits_.max_bodies_per_world));
  }
  // A body that sends part poses (animation) gets a new copy of all its
  // part poses in the snapshot: at most max_parts_per_body of them.
  std::int64_t animated = 0;
  for (const BodyUpdate& u : frame.bodies) animated += u.part_poses.empty() ? 0 : 1;
  const std::int64_t estimate =
      EstimateFrameBytes(bodies, parts) +
      animated * limits_.max_parts_per_body * static_cast<std::int64_t>(sizeof(Pose));
  if (std::string full = Charge(entry, estimate); !full.empty()) return Exhausted(std::move(full));
  const std::int64_t before = static_cast<std::int64_t>(world.history_bytes());
  FrameError error = world.PushFrame(frame);
  const std::int64_t after = static_cast<std::int64_t>(world.history_bytes());
  Charge(entry, after - before - estimate, /*may_exceed=*/true);
  if (std::optional<RequestError> refused = convert::FrameOutcome(error)) return refused;
  oldest_tick = world.oldest_tick().value_or(frame.tick);
  return std::nullopt;
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
