// The worlds a replica holds, by (tenant principal, world id), the limits on
// them and their memory accounting (docs/worlds.md, "Limits"): creating a
// world (CheckCreate, Reserve, NewWorld, Insert) and pushing a frame
// (CheckBodyParts, PushFrame) refuse what is over a limit with the
// RequestError the service answers. Thread-safe.
//
// Locking: the map is behind a shared_mutex held only to find, insert or
// erase an entry (lookups do not block each other); each world has its own
// shared_mutex: frames take it exclusively, queries and verdicts shared, so
// readers of a world run together, a query sees a frame wholly or not at all,
// and different worlds never wait on each other. Entries are shared_ptrs: a
// call holding one finishes safely while the world is deleted or evicted.
#ifndef COLLIDE_SERVER_WORLD_REGISTRY_H_
#define COLLIDE_SERVER_WORLD_REGISTRY_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "collide/world.h"
#include "server/status_mapping.h"

namespace collide::server {

struct WorldLimits {
  std::int64_t max_triangles_per_world = 4'000'000;
  // Statics that are shapes (spheres, boxes, hulls ...), not meshes or map
  // files, in one world.
  int max_primitive_statics_per_world = 65536;
  int max_bodies_per_world = 1024;
  int max_parts_per_body = 32;
  int max_history_ticks = 256;
  int max_worlds = 64;
  // Most worlds of one tenant (token auth: a token's; else the one shared
  // tenant); 0: no cap beyond max_worlds. The other limits are the
  // replica's, shared by all tenants.
  int max_worlds_per_tenant = 0;
  // Heap bytes of every world's geometry, BVHs and history together.
  std::int64_t memory_budget_bytes = std::int64_t{2} << 30;
  // A world without a call for this long is evicted (logged); 0: never.
  absl::Duration idle_ttl = absl::Minutes(30);
};
// "" when valid, else the first bad limit and why.
std::string CheckWorldLimits(const WorldLimits& limits);

// Bytes a world of these sizes is charged before it is built: vertices,
// triangle indices and a BVH bound (two nodes per triangle). An estimate
// that errs high, replaced by the measured size once built.
std::int64_t EstimateStaticBytes(std::int64_t vertices, std::int64_t triangles);
// Bytes charged ahead of a frame's history snapshot.
std::int64_t EstimateFrameBytes(std::int64_t bodies, std::int64_t parts);

class WorldJournal;  // world_journal.h

struct WorldEntry {
  WorldEntry(std::string owner, std::string id, World world)
      : owner(std::move(owner)), id(std::move(id)), world(std::move(world)) {}

  const std::string owner;
  const std::string id;
  std::shared_mutex mu;  // Guards world.
  World world;
  // Set once at creation.
  int static_elements = 0;
  std::int64_t triangles = 0;
  std::int64_t degenerate_triangles = 0;
  std::int64_t static_bytes = 0;
  double build_seconds = 0.0;  // the World's construction (BVHs, occluder grid), wall clock.
  // Charged to the registry: static_bytes + the world's history bytes.
  std::atomic<std::int64_t> charged_bytes{0};
  std::atomic<std::int64_t> last_used_ns{0};  // steady_clock.
  bool retired = false;                       // Out of the registry; guarded by mu.
  // CreateWorldRequest.journal's recording and audit trail; null: none. Set
  // before the entry is shared.
  std::shared_ptr<WorldJournal> journal;
};

// What the registry holds and has done, for the metrics endpoint.
struct WorldRegistryStats {
  std::int64_t worlds = 0;
  std::int64_t bodies = 0;     // In each world's latest frame.
  std::int64_t triangles = 0;  // Of the static geometry.
  std::int64_t used_bytes = 0;
  std::int64_t created = 0;  // Since start.
  std::int64_t deleted = 0;
  std::int64_t evicted = 0;  // Idle past the TTL.
};

class WorldRegistry;

// The room one world being created holds in the registry (Reserve), given
// back when it is destroyed unless Insert took it.
class WorldReservation {
 public:
  WorldReservation() = default;
  ~WorldReservation();
  WorldReservation(const WorldReservation&) = delete;
  WorldReservation& operator=(const WorldReservation&) = delete;

 private:
  friend class WorldRegistry;
  WorldRegistry* registry_ = nullptr;  // Null: nothing held.
  std::string owner_;
  std::int64_t bytes_ = 0;
};

class WorldRegistry {
 public:
  using Clock = std::chrono::steady_clock;
  explicit WorldRegistry(WorldLimits limits) : limits_(limits) {}

  const WorldLimits& limits() const { return limits_; }

  // Creating a world, in this order (each refusal is the call's answer):
  // A request's sizes before it is decoded: its history_ticks, the
  // triangles of its meshes (map files are counted once read, NewWorld) and
  // its primitive (shape) statics.
  std::optional<RequestError> CheckCreate(std::int64_t history_ticks, std::size_t mesh_triangles,
                                          std::size_t primitive_statics) const;
  // The history a world keeps when its request leaves history_ticks 0.
  int default_history_ticks() const;
  // No live world (owner, id) (ALREADY_EXISTS), and room for one more world
  // of `owner` of these sizes (RESOURCE_EXHAUSTED naming the limit: worlds
  // per replica or per tenant, memory budget); idle worlds are evicted
  // first. Charges an estimate (EstimateStaticBytes, plus `extra_bytes`:
  // the occluder grid's most) to `reservation`.
  std::optional<RequestError> Reserve(const std::string& owner, const std::string& id, std::int64_t vertices,
                                      std::int64_t triangles, WorldReservation& reservation,
                                      std::int64_t extra_bytes = 0);
  // The world of the decoded `statics` with its accounting (triangles, static
  // bytes), in `entry`; RESOURCE_EXHAUSTED when its meshes and maps hold more
  // triangles than a world may.
  std::optional<RequestError> NewWorld(const std::string& owner, const std::string& id,
                                       const WorldSettings& settings,
                                       const std::vector<StaticElement>& statics, int static_elements,
                                       std::shared_ptr<WorldEntry>& entry) const;
  // Adds the new world, taking its reservation, re-charged to its measured
  // size. Nothing is charged on a refusal: ALREADY_EXISTS when (owner, id)
  // exists, RESOURCE_EXHAUSTED when the measured size (larger than the
  // estimate only for map files, read before their size is known) does not
  // fit the budget.
  std::optional<RequestError> Insert(std::shared_ptr<WorldEntry> entry, WorldReservation& reservation);

  // Pushing a frame: the parts of its body `index` (before decoding), then
  // the decoded frame into entry's world under its lock: the body limit, the
  // memory charge of its snapshot, World::PushFrame (FAILED_PRECONDITION
  // for a tick not after the latest, INVALID_ARGUMENT for its problems
  // under "frame"). `oldest_tick`: the world's oldest tick afterwards.
  std::optional<RequestError> CheckBodyParts(int index, int parts) const;
  std::optional<RequestError> PushFrame(WorldEntry& entry, const Frame& frame, std::int64_t parts,
                                        std::int64_t& oldest_tick);

  // The live world, touched; null when absent or idle past the TTL.
  std::shared_ptr<WorldEntry> Find(const std::string& owner, const std::string& id);
  bool Erase(const std::string& owner, const std::string& id);
  std::vector<std::shared_ptr<WorldEntry>> List(const std::string& owner);

  std::int64_t used_bytes() const { return used_bytes_.load(); }
  // Reads every world under its own lock, shared (a frame under way is
  // waited for), after the map's lock is released.
  WorldRegistryStats Stats();

 private:
  friend class WorldReservation;
  using Key = std::pair<std::string, std::string>;
  // Room for one more world of `owner` of `bytes`: "" or the
  // RESOURCE_EXHAUSTED message naming the limit. Charges `bytes` on
  // success (Release them, or Insert the world).
  std::string ReserveBytes(const std::string& owner, std::int64_t bytes);
  void Release(const std::string& owner, std::int64_t bytes);
  // Charges `delta` more bytes to `entry` (negative: frees); "" or the
  // message when the budget would be exceeded (then nothing is charged).
  // The caller holds entry.mu exclusively. `may_exceed`: charge regardless
  // (a correction of an estimate already charged).
  std::string Charge(WorldEntry& entry, std::int64_t delta, bool may_exceed = false);
  bool Expired(const WorldEntry& e, std::int64_t now_ns) const;
  // Removes the idle worlds from the map (mu_ held exclusively).
  std::vector<std::shared_ptr<WorldEntry>> TakeIdleLocked(std::int64_t now_ns);
  void Retire(const std::shared_ptr<WorldEntry>& entry);
  void EvictIdle();
  // One reservation of `owner` ends (mu_ held exclusively).
  void EndReservationLocked(const std::string& owner);
  static std::int64_t NowNs();

  const WorldLimits limits_;
  std::shared_mutex mu_;
  std::map<Key, std::shared_ptr<WorldEntry>> worlds_;  // Guarded by mu_.
  int reserved_worlds_ = 0;                            // Guarded by mu_.
  std::map<std::string, int> reserved_by_owner_;       // Guarded by mu_; no zeros.
  std::atomic<std::int64_t> used_bytes_{0};
  std::atomic<std::int64_t> created_{0};
  std::atomic<std::int64_t> deleted_{0};
  std::atomic<std::int64_t> evicted_{0};
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_REGISTRY_H_
