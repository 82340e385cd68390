// C++ client of the collide.v1 WorldService (proto/collide/v1/world.proto):
// a match's level and the recent past of its players on the server, scene
// queries at a past time, shot and move verdicts. Core types in (world.h:
// Frame, RayQuery, ShotRequest, ...), absl::StatusOr out, no gRPC or protobuf
// in this header.
//
//   auto client = collide::WorldClient::Create("127.0.0.1:50051");
//   collide::WorldSpec spec{.id = "match-1"};
//   spec.statics.push_back({.id = 1, .geometry = collide::MapFileRef{"oa_dm1.pk3"}});
//   if (auto info = client->CreateWorld(spec); !info.ok()) return info.status();
//   client->PushFrame("match-1", frame);        // every tick
//   auto verdicts = client->ValidateShots("match-1", shots);
//
// Routing: every call on one world sets the `collide-world` metadata header
// to its id (a proxy hashes on it; the server requires it).
//
// Lost worlds: a world lives in one server replica's memory. When that
// replica restarts, evicts the world after its idle TTL, or a proxy's hash
// ring moves the world to another replica, a call answers NOT_FOUND with
// google.rpc.ErrorInfo reason WORLD_NOT_FOUND (IsWorldNotFound). With
// WorldClientOptions::recreate_lost_worlds (the default) this client then
// re-creates the world from what it kept, its creation request and its
// latest state (every body as of the latest accepted frame: pose, parts,
// part poses, category, movement shape), and retries the call once. The
// history before that frame is lost: rewinds are clamped to it until it
// refills (each result's TimeUsed says `clamped`). Every re-creation is
// reported to WorldClientOptions::on_history_lost (on the calling thread,
// before the retried call) and counted by history_losses(). A world this
// client did not create (or deleted) is not re-created: its NOT_FOUND comes
// back as it is. Keeping the state costs a copy of the creation request (a
// map world keeps only its file name; an inline mesh its vertices) and of
// every body's latest state; frames of one world are expected from one
// thread at a time (their ticks increase, so the kept state is the latest).
// A re-creation is two calls (CreateWorld, then PushFrame of the kept
// state): a call on the same world from another thread or stream in between
// sees it without bodies.
//
// Errors are the server's, with their details: INVALID_ARGUMENT carries a
// google.rpc.BadRequest whose field paths ("frame.bodies[12].pose.rotation")
// FieldViolations() and DescribeStatus() (client.h) read.
//
// Retries: the read-only calls (GetWorld, ListWorlds, queries, verdicts)
// retry UNAVAILABLE and CANCELLED as the CollisionService calls do
// (client.h); CreateWorld, DeleteWorld and PushFrame change the world and are
// not retried by the channel.
//
// A WorldClient is movable and thread-safe.
#ifndef COLLIDE_WORLD_CLIENT_H_
#define COLLIDE_WORLD_CLIENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/client.h"
#include "collide/melee.h"
#include "collide/mesh_data.h"
#include "collide/projectile.h"
#include "collide/world.h"

namespace collide {

namespace v1 {
class CreateWorldRequest;
class TickRequest;
class TickResponse;
}  // namespace v1

// A map file in the server's --maps_dir ("oa_dm1.pk3", "level.glb"); `map`
// picks one map of a .pk3 holding several ("" takes the only one).
struct MapFileRef {
  std::string name;
  std::string map;
  // world.proto MapGeometry values (RENDER = 1 ... LAVA = 7); empty: RENDER.
  std::vector<int> geometry;
};

// A static element of a world to create: a mesh (world frame, two-sided), a
// shape (world frame), or a map file the server loads.
struct WorldStatic {
  std::int64_t id = 0;
  CategoryMask category = kAllCategories;
  std::variant<Shape, MeshData, MapFileRef> geometry;
};

// The world's policy; unset fields take the server's defaults (the core's
// WorldSettings: world.h).
struct WorldPolicy {
  std::optional<int> max_rewind_ticks;
  std::optional<double> max_origin_offset;
  std::optional<double> default_max_speed;
  std::optional<double> skin_width;
  std::optional<int> slide_iterations;
  std::optional<std::uint64_t> move_category_mask;  // moves with mask 0
  std::optional<std::uint64_t> shot_category_mask;
  std::optional<MovementModel> movement;         // moves judged by a game's rules (collide/movement.h)
  std::optional<MoveBudget> move_budget;         // a budget across each body's moves
  std::optional<VisibilitySettings> visibility;  // occluders for GetVisibility (collide/visibility.h)
};

// What the server keeps of the world's calls (world.proto WorldJournal,
// docs/replay.md): each needs its server flag (--audit_dir,
// --recordings_dir), else CreateWorld is FAILED_PRECONDITION.
struct WorldJournalSpec {
  bool audit = false;   // the audit trail: every verdict, JSON Lines and WatchAudit.
  bool record = false;  // a match recording of every call.
};

struct WorldSpec {
  std::string id;  // 1 to 128 characters of [A-Za-z0-9._:-], unique per tenant.
  std::vector<WorldStatic> statics;
  int history_ticks = 0;  // frames kept; 0: the server's default (64 or its cap).
  WorldPolicy policy;
  WorldJournalSpec journal;
};

// What GetWorld reports (world.proto's WorldInfo).
struct WorldInfo {
  std::string id;
  int static_elements = 0;
  std::int64_t triangles = 0;
  std::int64_t degenerate_triangles = 0;
  int bodies = 0;  // in the latest frame.
  std::int64_t memory_bytes = 0;
  int frames_kept = 0;  // 0 before the first frame; then the ticks below hold.
  std::int64_t latest_tick = 0;
  std::int64_t oldest_tick = 0;
  WorldSettings settings;  // history_ticks and every policy field, as applied.
  std::string replica;     // "<hostname>:<pid>" of the replica holding it.
};

// One QueryWorld batch: answered rays first, then shape casts, then overlaps.
struct SceneQueries {
  std::vector<RayQuery> rays;
  std::vector<ShapeCastQuery> shape_casts;
  std::vector<OverlapQuery> overlaps;
};
struct SceneAnswers {
  std::vector<RayQueryResult> rays;
  std::vector<ShapeCastResult> shape_casts;
  std::vector<OverlapQueryResult> overlaps;
};

// A re-creation after the server lost a world.
struct HistoryLoss {
  std::string world_id;
  absl::Status cause;  // the NOT_FOUND that revealed it.
  // The state it was re-created with: the latest accepted frame's tick
  // (nullopt when no frame had been accepted) and its body count.
  std::optional<std::int64_t> restored_tick;
  int restored_bodies = 0;
};

// GetBodies as a Tick part: the bodies at `at` (unset: the latest frame),
// those in `ids` or every body.
struct TickBodies {
  std::optional<Time> at;
  std::vector<std::int64_t> ids;
};

// One message of the tick loop (world.proto TickRequest): any of its parts, run on the
// server in this order: frame, query, rays, shots, moves, projectiles, melee, visibility, bodies.
// A message without parts is a ping.
struct TickMessage {
  std::optional<Frame> frame;
  SceneQueries query;  // sent when it holds any query.
  // Closest-hit rays in the packed form, all with one filter and time.
  std::vector<Ray> rays;
  QueryFilter rays_filter;
  std::optional<Time> rays_at;
  std::vector<ShotRequest> shots;  // sent packed (errors name shots_packed.doubles[i]).
  std::vector<MoveRequest> moves;
  std::optional<TickBodies> bodies;  // after every other part: sees this message's frame.
  std::vector<ProjectileRequest> projectiles;
  std::vector<MeleeRequest> melee;
  std::optional<VisibilityRequest> visibility;  // after the verdicts: sees this message's frame.
  // Milliseconds the message may wait on the server before it starts; past
  // it, it is not run and answered DEADLINE_EXCEEDED alone. 0: no budget.
  double budget_ms = 0;
};

// The answer to one TickMessage.
struct TickReply {
  std::int64_t sequence = 0;
  // This message's own error (the unary call's code, message and details);
  // the stream goes on. Parts run in order until the first error: the
  // answers of the parts that ran are set (a frame with oldest_tick set was
  // applied), the later parts did not run.
  absl::Status status;
  std::optional<std::int64_t> oldest_tick;  // the frame was applied.
  SceneAnswers query;
  std::vector<RayQueryResult> rays;
  std::vector<ShotVerdict> shots;
  std::vector<MoveVerdict> moves;
  std::optional<BodiesResult> bodies;  // the part ran.
  std::vector<ProjectileVerdict> projectiles;
  std::vector<MeleeVerdict> melee;
  std::optional<VisibilityResult> visibility;  // the part ran.
};

class WorldClient;

// The Tick stream of one world: messages written in order, answered in the
// same order, a batch seeing every frame sent before it. Several messages may
// be in flight (Write, Write, Read, Read). A lost world (WORLD_NOT_FOUND on a
// message) is re-created as for unary calls once every message in flight has
// been answered, and each message that found it missing is sent again once,
// in their order; answers still come back in sequence order. For one thread
// at a time; it must not outlive its WorldClient.
class TickStream {
 public:
  ~TickStream();  // cancels the stream if Finish() was not called.
  // Sends `message`; returns its sequence number (1, 2, ...). An error
  // means the stream has ended (Finish() says why).
  absl::StatusOr<std::int64_t> Write(TickMessage message);
  // The answer to the oldest message not yet read. An error means the
  // stream ended (e.g. UNAVAILABLE: the server is shutting down; messages
  // without an answer were not applied).
  absl::StatusOr<TickReply> Read();
  // Write, then Read: one round trip.
  absl::StatusOr<TickReply> Send(TickMessage message);
  // Half-closes, drops the answers not read, and returns the stream's final
  // status (OK when the server ended it normally).
  absl::Status Finish();

  struct Impl;  // tick_stream.cc.
  explicit TickStream(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

// Sees the world calls a WorldClient and its Tick streams ran on the
// server, for a match recording (`collide world demo --record`): each world
// created, then each call on a world as the Tick message of its parts with
// its answer (a unary call as the message of its one part:
// convert/world_tick_parts.h), in the order the answers are read, on the
// thread that read them. Passed: answered calls, and Tick messages whose
// status is INVALID_ARGUMENT or FAILED_PRECONDITION (the server ran them);
// not the others (admission, a missing world: they did not run), nor a
// unary call's error (its status is not the Tick form a replay answers).
class CallRecorder {
 public:
  virtual ~CallRecorder() = default;
  virtual void Created(const v1::CreateWorldRequest& request) = 0;
  virtual void Called(std::string_view world_id, const v1::TickRequest& request,
                      const v1::TickResponse& response) = 0;
};

struct WorldClientOptions {
  // Re-create a lost world and retry once (see the file comment).
  bool recreate_lost_worlds = true;
  // Called after each re-creation, before the call is retried.
  std::function<void(const HistoryLoss&)> on_history_lost;
  // Null: nothing recorded.
  std::shared_ptr<CallRecorder> recorder;
};

// True for the server's "world not found": NOT_FOUND carrying
// google.rpc.ErrorInfo reason WORLD_NOT_FOUND.
bool IsWorldNotFound(const absl::Status& status);

class WorldClient {
 public:
  // A new channel to `target` (as Client::Create: options, TLS, token).
  static absl::StatusOr<WorldClient> Create(std::string_view target, const ClientOptions& options = {},
                                            WorldClientOptions world_options = {});
  // Shares `client`'s channel, deadline, token and retry policy.
  explicit WorldClient(const Client& client, WorldClientOptions world_options = {});

  WorldClient(WorldClient&&) noexcept;
  WorldClient& operator=(WorldClient&&) noexcept;
  ~WorldClient();

  // ALREADY_EXISTS when the caller already has a world of that id.
  absl::StatusOr<WorldInfo> CreateWorld(const WorldSpec& spec);
  // Forgets the kept state too, whatever the answer.
  absl::Status DeleteWorld(std::string_view world_id);
  absl::StatusOr<WorldInfo> GetWorld(std::string_view world_id);
  // The caller's worlds on the replica that answers.
  absl::StatusOr<std::vector<WorldInfo>> ListWorlds();

  // Appends a frame; returns the oldest tick kept after it.
  absl::StatusOr<std::int64_t> PushFrame(std::string_view world_id, const Frame& frame);

  absl::StatusOr<SceneAnswers> Query(std::string_view world_id, const SceneQueries& queries);
  // Closest-hit ray casts in the packed wire form, one filter and time for all.
  absl::StatusOr<std::vector<RayQueryResult>> CastRaysPacked(std::string_view world_id,
                                                             std::span<const Ray> rays,
                                                             const QueryFilter& filter = {},
                                                             std::optional<Time> at = std::nullopt);

  // Verdict i answers shots[i] (moves[i]). The packed form sends the same
  // shots as flat arrays (faster to encode and decode) and answers the same.
  // A shot or move with bad fields gets an INVALID verdict (kInvalid, its
  // `problems` naming the fields) and the others are judged; with
  // Batch::kAllOrNothing the call fails with kInvalidArgument instead.
  // With any item's `explain`, the batch is explained (the wire's flag is
  // per batch): every verdict but INVALID carries its `explanation`.
  enum class Batch : std::uint8_t { kPerItem, kAllOrNothing };
  absl::StatusOr<std::vector<ShotVerdict>> ValidateShots(std::string_view world_id,
                                                         std::span<const ShotRequest> shots,
                                                         Batch batch = Batch::kPerItem);
  absl::StatusOr<std::vector<ShotVerdict>> ValidateShotsPacked(std::string_view world_id,
                                                               std::span<const ShotRequest> shots,
                                                               Batch batch = Batch::kPerItem);
  absl::StatusOr<std::vector<MoveVerdict>> ValidateMoves(std::string_view world_id,
                                                         std::span<const MoveRequest> moves,
                                                         Batch batch = Batch::kPerItem);
  // Projectile and melee verdicts (collide/projectile.h, collide/melee.h,
  // docs/projectiles.md), as ValidateShots.
  absl::StatusOr<std::vector<ProjectileVerdict>> ValidateProjectiles(
      std::string_view world_id, std::span<const ProjectileRequest> projectiles,
      Batch batch = Batch::kPerItem);
  absl::StatusOr<std::vector<MeleeVerdict>> ValidateMelee(std::string_view world_id,
                                                          std::span<const MeleeRequest> swings,
                                                          Batch batch = Batch::kPerItem);

  // The bodies at `at` (unset: the latest frame) as the verdicts pose them:
  // those in `ids` (at most the server's --max_items_per_request), or every
  // body when empty; missing ids listed (docs/worlds.md, GetBodies).
  absl::StatusOr<BodiesResult> GetBodies(std::string_view world_id, std::optional<Time> at = std::nullopt,
                                         std::span<const std::int64_t> ids = {});

  // Visibility sets (docs/visibility.md): for each observer, the bodies it
  // may see; kInvalidArgument naming the bad fields.
  absl::StatusOr<VisibilityResult> GetVisibility(std::string_view world_id, const VisibilityRequest& request);

  // Opens the Tick stream of a world (the header set to `world_id`). Fails
  // when the stream cannot start; an unknown world is reported per message.
  absl::StatusOr<std::unique_ptr<TickStream>> OpenTickStream(std::string_view world_id);

  // Re-creations after a lost world so far (all worlds).
  std::int64_t history_losses() const;

  struct Impl;  // world_client.cc.

 private:
  // The calls on wire messages (world_client_proto.h).
  friend absl::StatusOr<WorldInfo> CreateWorld(WorldClient&, const v1::CreateWorldRequest&);
  friend absl::StatusOr<std::vector<v1::TickResponse>> SendTickMessages(WorldClient&, std::string_view,
                                                                        const std::vector<v1::TickRequest>&);

  explicit WorldClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace collide

#endif  // COLLIDE_WORLD_CLIENT_H_
