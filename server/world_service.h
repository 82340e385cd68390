// The collide.v1.WorldService handlers (gRPC callback API). Each is decode ->
// registry/core -> encode: checks of the world id and the `collide-world`
// header and admission, conversion (convert/world_*), the registry (its
// limits and memory accounting, WorldRegistry) or the core World under the
// world's lock, then the response. A refusal is a RequestError, made a
// grpc::Status (or a Tick answer's google.rpc.Status) only by
// status_mapping.h. Errors as world.proto's header lists them.
//
// Where the work runs: gRPC 1.51's callback threads are few, and the same
// threads accept connections and answer health checks, so work that may be
// long never runs there. CreateWorld (statics, map files, BVH builds) and
// any call on a world over 16 KiB or 32 items run on the service's
// CallExecutor (`--worker_threads` threads); a call that waited there past
// its deadline, or whose client cancelled, is answered without running.
// Short calls (GetWorld, ListWorlds, DeleteWorld, a small batch) run on the
// gRPC thread, cheaper than a handoff. Tick streams (TickStream,
// world_tick.h) run their messages with the unary calls' code (Run): a small
// one on the gRPC thread that read it, a large one on the CallExecutor.
#ifndef COLLIDE_SERVER_WORLD_SERVICE_H_
#define COLLIDE_SERVER_WORLD_SERVICE_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/functional/function_ref.h"
#include "collide/v1/world.grpc.pb.h"
#include "collide/world.h"
#include "convert/violations.h"
#include "convert/world_calls.h"
#include "convert/world_items.h"
#include "convert/world_tick_parts.h"
#include "server/admission.h"
#include "server/call_executor.h"
#include "server/map_cache.h"
#include "server/metrics.h"
#include "server/status_mapping.h"
#include "server/test_hooks.h"
#include "server/world_journal.h"
#include "server/world_metrics.h"
#include "server/world_registry.h"

namespace collide::server {

// What handling a request came to: nullopt when answered, else why not.
using Outcome = std::optional<RequestError>;
using convert::RequestItems;

// Name of the metadata header that must carry the request's world id.
inline constexpr char kWorldHeader[] = "collide-world";

struct WorldServiceConfig {
  WorldLimits limits;
  // Most queries, shots or moves in one call (the service's
  // --max_items_per_request).
  int max_items_per_request = 65536;
  // The server's --max_send_message_bytes: a QueryWorld answer keeps at
  // most a 128th of it in ray hits and overlap results.
  int max_send_message_bytes = 64 << 20;
  std::string replica;  // "<hostname>:<pid>", reported in WorldInfo.
  // Directory of the map files CreateWorld may name (MapFile.name); "": none.
  std::string maps_dir;
  // Token auth is on: a world belongs to the tenant of its creator's bearer
  // token (TokenPrincipal), and other tenants cannot see it. Off: every
  // caller is the one tenant "".
  bool tenants_by_token = false;
  // The server's admission limits (shared with CollisionService); null:
  // none. Counts every world call on a world, and each Tick message.
  Admission* admission = nullptr;
  // Threads running long world calls and large Tick messages (CallExecutor).
  int call_threads = 2;
  // Bytes all Tick streams together may hold in messages read and not yet
  // run and answers not yet written (--tick_streams_memory_bytes): past it,
  // a stream that holds any stops reading and running until it is under
  // again (TickStream).
  std::int64_t tick_streams_memory_bytes = std::int64_t{64} << 20;
  // The journal flags (--audit_dir, --recordings_dir, ...).
  JournalConfig journal;
  // Tests only (TestHooks' world hooks).
  TestHooks hooks;
};

class TickStream;

// Every method served raw (bytes in, bytes out; ServeRaw, TickStream), on the
// plain Service base: CallbackService would declare a typed Tick. WatchAudit
// alone is typed: a world id in, a stream of records out (AuditWatch).
using WorldServiceBase = v1::WorldService::WithCallbackMethod_WatchAudit<
    v1::WorldService::WithRawCallbackMethod_Tick<v1::WorldService::WithRawCallbackMethod_CreateWorld<
        v1::WorldService::WithRawCallbackMethod_DeleteWorld<v1::WorldService::WithRawCallbackMethod_GetWorld<
            v1::WorldService::WithRawCallbackMethod_ListWorlds<
                v1::WorldService::WithRawCallbackMethod_PushFrame<
                    v1::WorldService::WithRawCallbackMethod_QueryWorld<
                        v1::WorldService::WithRawCallbackMethod_CastWorldRaysPacked<
                            v1::WorldService::WithRawCallbackMethod_ValidateShots<
                                v1::WorldService::WithRawCallbackMethod_ValidateShotsPacked<
                                    v1::WorldService::WithRawCallbackMethod_ValidateMoves<
                                        v1::WorldService::WithRawCallbackMethod_GetBodies<
                                            v1::WorldService::WithRawCallbackMethod_ValidateProjectiles<
                                                v1::WorldService::WithRawCallbackMethod_ValidateMelee<
                                                    v1::WorldService::WithRawCallbackMethod_GetVisibility<
                                                        v1::WorldService::Service>>>>>>>>>>>>>>>>;

class WorldService final : public WorldServiceBase {
 public:
  explicit WorldService(WorldServiceConfig config);
  // Runs after gRPC's Server::Wait, which returns once every Tick stream's
  // OnDone (RemoveStream) has run; it takes streams_mu_ to state that
  // ordering for TSan (gRPC, uninstrumented, orders it invisibly).
  ~WorldService() override;

  grpc::ServerUnaryReactor* CreateWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* DeleteWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ListWorlds(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* PushFrame(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* QueryWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CastWorldRaysPacked(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateShots(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateShotsPacked(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateMoves(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetBodies(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateProjectiles(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateMelee(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;

  grpc::ServerUnaryReactor* GetVisibility(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;

  grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* Tick(
      grpc::CallbackServerContext* context) override;
  // The world's audit trail as it is written (AuditWatch).
  grpc::ServerWriteReactor<v1::AuditRecord>* WatchAudit(grpc::CallbackServerContext* context,
                                                        const v1::WatchAuditRequest* request) override;

  // A unary call's caller as the handlers see it: its tenant
  // (WorldServiceConfig::tenants_by_token) and the `collide-world` header's
  // value (nullopt: absent).
  struct Caller {
    std::string principal;
    std::optional<std::string_view> world_header;
    // The call was admitted before it was queued for a call thread
    // (ServeRaw): Handle does not count it again.
    bool admitted = false;
  };
  // One parsed unary request with no gRPC call: the whole handling each
  // method runs after parsing (ServeRaw). The status is the call's;
  // `response` is meant only when OK. CreateWorld, DeleteWorld and
  // ListWorlds: the id and header checks, then Create, Erase or List.
  grpc::Status Handle(const Caller& caller, const v1::CreateWorldRequest& request, v1::WorldInfo* response);
  grpc::Status Handle(const Caller& caller, const v1::DeleteWorldRequest& request,
                      v1::DeleteWorldResponse* response);
  grpc::Status Handle(const Caller& caller, const v1::ListWorldsRequest& request,
                      v1::ListWorldsResponse* response);
  // Every method on one world (each request that has a Run overload below):
  // admission of its RequestItems, the world's lookup (InWorld), then Run.
  // A new method on one world needs only its Run and RequestItems.
  template <typename Request, typename Response>
  grpc::Status Handle(const Caller& caller, const Request& request, Response* response) {
    const Outcome refused =
        InWorld(caller, request.world_id(), RequestItems(request),
                [&](WorldEntry& entry) { return RunJournaled(entry, request, response); });
    return refused.has_value() ? ToGrpcStatus(*refused) : grpc::Status::OK;
  }

  // One Tick message of `owner`'s stream on `world` (a valid id), read at
  // `read_at`, with no gRPC call: the budget, the nested world ids,
  // admission, the world's lookup, then each part's Run in order; errors go
  // to response->status (world.proto: TickRequest).
  void AnswerTick(const std::string& owner, const std::string& world, const v1::TickRequest& request,
                  std::chrono::steady_clock::time_point read_at, v1::TickResponse* response);

  // Shutdown: every open Tick stream stops reading and ends UNAVAILABLE once
  // the messages it has read are answered; streams opened later end so at
  // once. Called before gRPC's Shutdown, which waits for open calls.
  void Drain();

  WorldRegistry& registry() { return registry_; }
  // The map files' meshes, one per tenant and file (tests).
  const MapCache& maps() const { return maps_; }
  // Bytes the Tick streams hold now, and the most they held at once.
  std::int64_t tick_bytes() const { return tick_bytes_.load(std::memory_order_relaxed); }
  std::int64_t tick_bytes_peak() const { return tick_bytes_peak_.load(std::memory_order_relaxed); }
  // Sends each call's status, items and latency to `metrics` (by RPC), and
  // adds the worlds' section to it. Before the server starts.
  void AttachMetrics(Metrics& metrics);

 private:
  friend class TickStream;

  // The caller's tenant (WorldServiceConfig::tenants_by_token).
  std::string Principal(const grpc::CallbackServerContext& context) const;
  Caller CallerOf(const grpc::CallbackServerContext& context) const;
  // The part of Handle common to the methods on one world: admission of
  // `items`, the id and header checks, the caller's world, then `run` on it.
  Outcome InWorld(const Caller& caller, const std::string& world_id, std::size_t items,
                  absl::FunctionRef<Outcome(WorldEntry&)> run);
  // Parses the request bytes (ParseRequest), answers with Handle, serializes
  // the response and records the call (WorldMetrics::Record): the body of
  // every unary method.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* ServeRaw(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request_bytes, grpc::ByteBuffer* response_bytes);

  // One request on its world, found: the whole handling after the lookup,
  // the same for a unary call and a Tick message: the shared world calls
  // (convert/world_calls.h) on the entry under its lock (EntryAccess).
  Outcome Run(WorldEntry& entry, const v1::GetWorldRequest& request, v1::WorldInfo* response);
  Outcome Run(WorldEntry& entry, const v1::PushFrameRequest& request, v1::PushFrameResponse* response);
  Outcome Run(WorldEntry& entry, const v1::QueryWorldRequest& request, v1::QueryWorldResponse* response);
  Outcome Run(WorldEntry& entry, const v1::CastWorldRaysPackedRequest& request,
              v1::CastWorldRaysPackedResponse* response);
  Outcome Run(WorldEntry& entry, const v1::ValidateShotsRequest& request,
              v1::ValidateShotsResponse* response);
  Outcome Run(WorldEntry& entry, const v1::ValidateShotsPackedRequest& request,
              v1::ValidateShotsResponse* response);
  Outcome Run(WorldEntry& entry, const v1::ValidateMovesRequest& request,
              v1::ValidateMovesResponse* response);
  Outcome Run(WorldEntry& entry, const v1::GetBodiesRequest& request, v1::GetBodiesResponse* response);
  Outcome Run(WorldEntry& entry, const v1::ValidateProjectilesRequest& request,
              v1::ValidateProjectilesResponse* response);
  Outcome Run(WorldEntry& entry, const v1::ValidateMeleeRequest& request,
              v1::ValidateMeleeResponse* response);

  Outcome Run(WorldEntry& entry, const v1::GetVisibilityRequest& request,
              v1::GetVisibilityResponse* response);
  // Run, and on a world with a journal, the call in its Tick message form
  // recorded (its calls one at a time) and its verdicts audited.
  template <typename Request, typename Response>
  Outcome RunJournaled(WorldEntry& entry, const Request& request, Response* response) {
    if constexpr (requires(v1::TickRequest * tick) { convert::AsTickPart(request, tick); }) {
      // Only verdicts are audited: an audit-only world's frames and queries
      // run as on any world.
      constexpr bool kVerdicts = std::is_same_v<Request, v1::ValidateShotsRequest> ||
                                 std::is_same_v<Request, v1::ValidateShotsPackedRequest> ||
                                 std::is_same_v<Request, v1::ValidateMovesRequest>;
      if (entry.journal != nullptr && (kVerdicts || entry.journal->records())) {
        WorldJournal& journal = *entry.journal;
        const auto serialized = journal.Serialize();
        const auto start = std::chrono::steady_clock::now();
        Outcome refused = Run(entry, request, response);
        [[maybe_unused]] const double micros =  // Audited verdicts' batch_micros.
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        if (journal.records()) {
          v1::TickRequest tick;
          v1::TickResponse answer;
          convert::AsTickPart(request, &tick);
          if (!refused) convert::AsTickAnswer(request, *response, &answer);
          Outcome as_part = refused;  // As a Tick message's part would have failed.
          if (as_part) as_part->part = convert::TickPartName(request);
          journal.Record(tick, answer, as_part);
        }
        // Audited from the call's own messages, not copied into Tick form.
        if constexpr (kVerdicts) {
          if (!refused) journal.Audit(request, *response, micros, LatestTick(entry));
        }
        return refused;
      }
    }
    return Run(entry, request, response);
  }
  static std::int64_t LatestTick(WorldEntry& entry);

  // The Tick message's handling; AnswerTick puts a refusal into the
  // response.
  Outcome RunTick(const std::string& owner, const std::string& world, const v1::TickRequest& request,
                  std::chrono::steady_clock::time_point read_at, v1::TickResponse* response);
  // TickStream's registration, for Drain; false when draining.
  bool AddStream(TickStream* stream);
  void RemoveStream(TickStream* stream);
  // The Tick streams' memory (WorldServiceConfig::tick_streams_memory_bytes):
  // bytes held by all streams, changed by each stream under its lock.
  void ChargeTickBytes(std::int64_t bytes) {
    const std::int64_t now = tick_bytes_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    for (std::int64_t peak = tick_bytes_peak_.load(std::memory_order_relaxed);
         now > peak && !tick_bytes_peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed);) {
    }
  }
  bool TickBytesOver() const {
    return tick_bytes_.load(std::memory_order_relaxed) >= config_.tick_streams_memory_bytes;
  }
  // A stream that stopped for memory says so; ResumeStarvedStreams, called
  // by any stream after it gave memory back (without its lock held), lets
  // them all try again once the streams are under the cap.
  void NoteStarved() { starved_streams_.fetch_add(1, std::memory_order_relaxed); }
  void ResumeStarvedStreams();

  Outcome Create(const std::string& owner, const v1::CreateWorldRequest& request, v1::WorldInfo* response);
  void FillInfo(WorldEntry& entry, v1::WorldInfo* out);
  const WorldServiceConfig config_;
  const convert::WorldCallLimits call_limits_;
  AuditLog audit_log_;  // Before registry_: outlives the journals of its worlds.
  WorldRegistry registry_;
  MapCache maps_;  // map files' meshes, shared by a tenant's worlds on them.
  WorldMetrics world_metrics_{registry_};
  Metrics* metrics_ = nullptr;  // Null: no metrics endpoint.
  std::mutex streams_mu_;
  std::set<TickStream*> streams_;  // Open Tick streams; guarded by streams_mu_.
  bool draining_ = false;          // Guarded by streams_mu_.
  std::atomic<std::int64_t> tick_bytes_{0};
  std::atomic<std::int64_t> tick_bytes_peak_{0};
  std::atomic<int> starved_streams_{0};
  CallExecutor executor_;  // Last: destroyed (drained) first.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_SERVICE_H_
