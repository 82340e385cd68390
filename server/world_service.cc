#include "server/world_service.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "collide/import/map_import.h"
#include "convert/packed.h"
#include "convert/world_calls.h"
#include "convert/world_packed.h"
#include "convert/world_projectiles.h"
#include "convert/world_requests.h"
#include "convert/world_results.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "record/map_files.h"
#include "server/service.h"
#include "server/status_mapping.h"
#include "server/token_auth.h"
#include "server/world_tick.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

constexpr std::size_t kMaxWorldIdLength = 128;

// The method a request type is for: "PushFrame" of PushFrameRequest.
template <typename Request>
std::string_view RpcName() {
  static const std::string name = [] {
    std::string type = Request::descriptor()->name();
    return type.ends_with("Request") ? type.substr(0, type.size() - 7) : type;
  }();
  return name;
}

// The world a request names ("" for ListWorlds).
template <typename Request>
std::string_view WorldIdOf(const Request& request) {
  if constexpr (requires { request.world_id(); }) {
    return request.world_id();
  } else {
    return "";
  }
}

grpc::ServerUnaryReactor* Finish(grpc::CallbackServerContext* context, const grpc::Status& status) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(status);
  return reactor;
}

// NOT_FOUND with ErrorInfo WORLD_NOT_FOUND: the same for a world that never
// existed, was deleted or evicted, or belongs to another tenant.
RequestError WorldNotFound(const std::string& id) {
  return {.kind = RequestError::Kind::kNotFound,
          .message = absl::StrCat("world \"", id, "\" not found on this replica"),
          .info = {.reason = "WORLD_NOT_FOUND", .domain = "collide.v1", .metadata = {{"world_id", id}}}};
}

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == ':' || c == '-';
}

constexpr char kWorldIdForm[] = "must be 1 to 128 characters of [A-Za-z0-9._:-]";
bool IsWorldId(std::string_view id) {
  return !id.empty() && id.size() <= kMaxWorldIdLength && std::all_of(id.begin(), id.end(), IsIdChar);
}

// The world id's form, and the header that must repeat it (so that a proxy
// routing on the header never sends a call to the wrong owner silently).
Outcome CheckWorldId(const std::optional<std::string_view>& header, const std::string& id) {
  if (!IsWorldId(id)) return InvalidField("world_id", kWorldIdForm);
  if (!header.has_value()) {
    return InvalidField(kWorldHeader,
                        absl::StrCat("the metadata header is required and must equal world_id \"", id, "\""));
  }
  if (*header != id) {
    return InvalidField(kWorldHeader, absl::StrCat("the metadata header \"", std::string(*header),
                                                   "\" differs from world_id \"", id, "\""));
  }
  return std::nullopt;
}

// An admitted call's items, released when it ends; admitted() false when
// refused (nothing counted) or when there are no limits.
class AdmissionGuard {
 public:
  AdmissionGuard(Admission* admission, std::size_t items)
      : admission_(admission), items_(items), refused_(admission != nullptr && !admission->Admit(items)) {}
  ~AdmissionGuard() {
    if (admission_ != nullptr && !refused_) admission_->Release(items_);
  }
  AdmissionGuard(const AdmissionGuard&) = delete;
  AdmissionGuard& operator=(const AdmissionGuard&) = delete;
  bool refused() const { return refused_; }

 private:
  Admission* const admission_;
  const std::size_t items_;
  const bool refused_;
};

// What admission charges for a call of `items` items: a call over
// --max_items_per_request is refused without running, and a lone call always
// fits (--max_items_in_flight is at least --max_items_per_request).
std::size_t Charged(std::size_t items, int max_items_per_request) {
  return std::min(items, static_cast<std::size_t>(max_items_per_request));
}

// The call's status: OK, or the error's (ToGrpcStatus).
grpc::Status StatusOf(const Outcome& outcome) {
  return outcome.has_value() ? ToGrpcStatus(*outcome) : grpc::Status::OK;
}

// Map files from `maps_dir` through the import library (collide::importer),
// capped at the world's triangle limit while reading; a mesh is shared with
// the worlds of the same tenant (`owner`) already on the same file (`cache`).
// Per tenant, so that a creation costs the same whether or not another
// tenant holds the map (a cached mesh is several times faster to get than
// an import, which would tell a tenant that someone plays that map). A map
// over the triangle limit sets `over_limit` (RESOURCE_EXHAUSTED naming
// --max_triangles_per_world) as well as a violation.
convert::MapLoader MapLoaderFor(const std::string& owner, const std::string& maps_dir,
                                const WorldLimits& limits, MapCache& cache, Outcome& over_limit) {
  if (maps_dir.empty()) return nullptr;
  return [owner, maps_dir, max = limits.max_triangles_per_world, &cache, &over_limit](
             const v1::MapFile& map, const std::string& path,
             convert::ViolationList& violations) -> std::shared_ptr<const TriangleMesh> {
    const std::string& name = map.name();
    const std::optional<importer::ImportOptions> read =
        record::MapImportOptions(map, path, static_cast<std::uint64_t>(max), violations);
    if (!read) return nullptr;
    const importer::ImportOptions& options = *read;
    const std::string file = maps_dir + "/" + name;
    // The file as it is now: a map replaced on disk is read afresh.
    std::error_code error;
    const auto size = std::filesystem::file_size(file, error);
    const auto modified = std::filesystem::last_write_time(file, error).time_since_epoch().count();
    const std::string key = absl::StrCat(owner, "\n", name, "\n", options.map, "\n", options.categories, "\n",
                                         max, "\n", size, "\n", modified);
    absl::StatusOr<std::shared_ptr<const TriangleMesh>> mesh =
        cache.Get(key, [&]() -> absl::StatusOr<MeshData> {
          absl::StatusOr<importer::ImportedMesh> imported = importer::ImportMap(file, options);
          if (!imported.ok()) return imported.status();
          return std::move(imported->mesh);
        });
    if (!mesh.ok()) {
      // The library's message starts with the path; the caller knows the name only.
      std::string message(mesh.status().message());
      if (message.starts_with(maps_dir + "/")) message.erase(0, maps_dir.size() + 1);
      // The import's triangle cap is the flag's value ("N triangles exceed
      // the limit of M"); its other caps are the file's faults.
      if (mesh.status().code() == absl::StatusCode::kResourceExhausted &&
          message.find(" triangles exceed the limit of ") != std::string::npos && !over_limit) {
        over_limit = RequestError{RequestError::Kind::kLimitExceeded,
                                  absl::StrCat(path, ": ", message, "; --max_triangles_per_world is ", max)};
      }
      violations.Add(path, std::move(message));
      return nullptr;
    }
    return *std::move(mesh);
  };
}

// Whether a world call runs on the CallExecutor rather than on the gRPC
// thread that delivered it: CreateWorld always (statics' validation, map
// files, BVH builds: up to seconds), a call on a world when its request is
// over TickStream::kMaxInlineBytes or kMaxInlineItems queries, shots or
// moves (as a Tick message). GetWorld, ListWorlds and DeleteWorld are short.
constexpr std::size_t kMaxInlineItems = 32;
template <typename Request>
bool PostsWork(const Request& request, std::size_t bytes) {
  if constexpr (std::is_same_v<Request, v1::CreateWorldRequest>) {
    return true;
  } else if constexpr (std::is_same_v<Request, v1::GetWorldRequest> ||
                       std::is_same_v<Request, v1::ListWorldsRequest> ||
                       std::is_same_v<Request, v1::DeleteWorldRequest>) {
    return false;
  } else {
    return bytes > TickStream::kMaxInlineBytes || RequestItems(request) > kMaxInlineItems;
  }
}

// What admission charges a posted call: its items; a CreateWorld its
// statics.
template <typename Request>
std::size_t AdmittedItems(const Request& request) {
  if constexpr (std::is_same_v<Request, v1::CreateWorldRequest>) {
    return static_cast<std::size_t>(request.statics_size());
  } else if constexpr (requires { RequestItems(request); }) {
    return RequestItems(request);
  } else {
    return 0;  // Never posted (PostsWork).
  }
}

// A posted call's status before it runs: CANCELLED when its client gave up,
// DEADLINE_EXCEEDED when its deadline passed while it waited for a thread
// (either way it does not run); else OK.
grpc::Status WaitedTooLong(grpc::CallbackServerContext& context) {
  if (context.IsCancelled()) return ToGrpcStatus({RequestError::Kind::kCancelled, "the call was cancelled"});
  if (std::chrono::system_clock::now() >= context.deadline()) {
    return ToGrpcStatus({RequestError::Kind::kDeadlineExceeded,
                         "the deadline passed while the call waited for a thread: not run"});
  }
  return grpc::Status::OK;
}

// The server's world for the shared world calls: reads under the world's
// shared lock, frames through the registry (limits, memory accounting).
class EntryAccess final : public convert::WorldAccess {
 public:
  EntryAccess(WorldRegistry& registry, WorldEntry& entry) : registry_(registry), entry_(entry) {}
  void Read(absl::FunctionRef<void(const World&)> read) override {
    std::shared_lock lock(entry_.mu);
    read(entry_.world);
  }
  Outcome CheckBodyParts(int index, int parts) override { return registry_.CheckBodyParts(index, parts); }
  Outcome PushFrame(const Frame& frame, std::int64_t parts, std::int64_t& oldest_tick) override {
    return registry_.PushFrame(entry_, frame, parts, oldest_tick);
  }

 private:
  WorldRegistry& registry_;
  WorldEntry& entry_;
};

}  // namespace

// With token auth on, the transport checked the call's one "authorization"
// header and left it on world calls (kTenantPathPrefix) for this.
std::string WorldService::Principal(const grpc::CallbackServerContext& context) const {
  if (!config_.tenants_by_token) return "";
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";  // Not past the auth filter of a world method.
  const std::optional<absl::string_view> token = BearerToken({it->second.data(), it->second.size()});
  return token.has_value() ? TokenPrincipal(*token) : "";
}

WorldService::Caller WorldService::CallerOf(const grpc::CallbackServerContext& context) const {
  Caller caller{Principal(context), std::nullopt};
  const auto& metadata = context.client_metadata();
  if (const auto it = metadata.find(kWorldHeader); it != metadata.end()) {
    caller.world_header.emplace(it->second.data(), it->second.size());
  }
  return caller;
}

WorldService::WorldService(WorldServiceConfig config)
    : config_(std::move(config)),
      call_limits_{.max_items_per_request = config_.max_items_per_request,
                   .max_kept_results = convert::MaxKeptResults(config_.max_send_message_bytes)},
      registry_(config_.limits),
      executor_(config_.call_threads) {}

void WorldService::FillInfo(WorldEntry& entry, v1::WorldInfo* out) {
  std::shared_lock lock(entry.mu);
  const World& w = entry.world;
  out->set_world_id(entry.id);
  out->set_static_elements(entry.static_elements);
  out->set_triangles(entry.triangles);
  out->set_degenerate_triangles(entry.degenerate_triangles);
  out->set_bodies(static_cast<int>(w.body_count()));
  out->set_memory_bytes(entry.static_bytes + static_cast<std::int64_t>(w.history_bytes()));
  out->set_latest_tick(w.latest_tick().value_or(0));
  out->set_oldest_tick(w.oldest_tick().value_or(0));
  out->set_frames_kept(static_cast<int>(w.frame_count()));
  out->set_history_ticks(w.settings().history_ticks);
  convert::ToProto(w.settings(), out->mutable_policy());
  out->set_replica(config_.replica);
  out->set_detected_teleports(w.detected_teleports());
  if (w.visibility_info().built) convert::ToProto(w.visibility_info(), out->mutable_visibility());
}

Outcome WorldService::Create(const std::string& owner, const v1::CreateWorldRequest& request,
                             v1::WorldInfo* response) {
  const std::size_t triangles = convert::TriangleCount(request);
  const auto primitives =
      static_cast<std::size_t>(std::count_if(request.statics().begin(), request.statics().end(),
                                             [](const v1::StaticElement& e) { return e.has_shape(); }));
  if (Outcome refused = registry_.CheckCreate(request.history_ticks(), triangles, primitives)) return refused;
  if (Outcome refused = CheckJournal(request.journal(), config_.journal)) return refused;
  convert::ViolationList violations;
  WorldSettings settings;
  convert::DecodeSettings(request, registry_.default_history_ticks(), settings, violations);
  if (!violations.empty()) return InvalidFields(std::move(violations));
  std::int64_t vertices = 0;
  for (const v1::StaticElement& e : request.statics()) vertices += e.mesh().vertices_size() / 3;
  // The occluder grid at its cap, with its build's temporaries (about 20
  // bytes a voxel at the peak: voxelize.cc, voxel_grid.cc), before it is
  // built: a policy cannot allocate past the memory budget.
  const std::int64_t grid_bytes =
      settings.visibility.occluder_mask != 0 ? settings.visibility.max_voxels * 20 : 0;
  WorldReservation reservation;
  if (Outcome refused = registry_.Reserve(owner, request.world_id(), vertices,
                                          static_cast<std::int64_t>(triangles), reservation, grid_bytes)) {
    return refused;
  }

  convert::DecodeArena arena;
  std::vector<StaticElement> statics;
  Outcome over_limit;
  if (!convert::DecodeStatics(request, statics, arena, violations,
                              MapLoaderFor(owner, config_.maps_dir, registry_.limits(), maps_, over_limit))) {
    if (over_limit) return over_limit;
    return InvalidFields(std::move(violations));
  }
  std::shared_ptr<WorldEntry> entry;
  if (Outcome refused =
          registry_.NewWorld(owner, request.world_id(), settings, statics, request.statics_size(), entry)) {
    return refused;
  }
  if (request.has_journal() && (request.journal().audit() || request.journal().record())) {
    absl::StatusOr<std::unique_ptr<WorldJournal>> journal = WorldJournal::Open(
        config_.journal, audit_log_, owner, request, settings.history_ticks, config_.maps_dir);
    if (!journal.ok()) {
      spdlog::error("world {}: journal: {}", request.world_id(), journal.status().ToString());
      return RequestError{
          RequestError::Kind::kUnavailable,
          absl::StrCat("the world's journal cannot be written: ", journal.status().message())};
    }
    entry->journal = *std::move(journal);
  }
  FillInfo(*entry, response);
  if (Outcome refused = registry_.Insert(entry, reservation)) {
    response->Clear();
    return refused;
  }
  if (entry->journal != nullptr) entry->journal->Commit();
  spdlog::info(
      "world {} created (statics={}, triangles={}, bytes={}, history_ticks={}, build_s={:.3f}, "
      "visibility_voxels={}, visibility_bytes={})",
      entry->id, entry->static_elements, entry->triangles, entry->static_bytes, settings.history_ticks,
      entry->build_seconds, entry->world.visibility_info().solid_voxels,
      entry->world.visibility_info().memory_bytes);
  return std::nullopt;
}

Outcome WorldService::Run(WorldEntry& entry, const v1::GetWorldRequest&, v1::WorldInfo* response) {
  FillInfo(entry, response);
  return std::nullopt;
}

Outcome WorldService::Run(WorldEntry& entry, const v1::PushFrameRequest& request,
                          v1::PushFrameResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunFrame(world, request.frame(), response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::QueryWorldRequest& request,
                          v1::QueryWorldResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunQuery(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::CastWorldRaysPackedRequest& request,
                          v1::CastWorldRaysPackedResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunRaysPacked(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::ValidateShotsRequest& request,
                          v1::ValidateShotsResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunShots(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::ValidateShotsPackedRequest& request,
                          v1::ValidateShotsResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunShotsPacked(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::ValidateMovesRequest& request,
                          v1::ValidateMovesResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunMoves(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::GetBodiesRequest& request,
                          v1::GetBodiesResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunBodies(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::ValidateProjectilesRequest& request,
                          v1::ValidateProjectilesResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunProjectiles(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::ValidateMeleeRequest& request,
                          v1::ValidateMeleeResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunMelee(world, call_limits_, request, response);
}

Outcome WorldService::Run(WorldEntry& entry, const v1::GetVisibilityRequest& request,
                          v1::GetVisibilityResponse* response) {
  EntryAccess world(registry_, entry);
  return convert::RunVisibility(world, call_limits_, request, response);
}

Outcome WorldService::InWorld(const Caller& caller, const std::string& world_id, std::size_t items,
                              absl::FunctionRef<Outcome(WorldEntry&)> run) {
  const AdmissionGuard admitted(config_.admission, Charged(items, config_.max_items_per_request));
  if (admitted.refused()) return config_.admission->Refusal();
  if (Outcome refused = CheckWorldId(caller.world_header, world_id)) return refused;
  const std::shared_ptr<WorldEntry> entry = registry_.Find(caller.principal, world_id);
  return entry != nullptr ? run(*entry) : WorldNotFound(world_id);
}

grpc::Status WorldService::Handle(const Caller& caller, const v1::CreateWorldRequest& request,
                                  v1::WorldInfo* response) {
  if (Outcome refused = CheckWorldId(caller.world_header, request.world_id())) return ToGrpcStatus(*refused);
  return StatusOf(Create(caller.principal, request, response));
}

grpc::Status WorldService::Handle(const Caller& caller, const v1::DeleteWorldRequest& request,
                                  v1::DeleteWorldResponse*) {
  if (Outcome refused = CheckWorldId(caller.world_header, request.world_id())) return ToGrpcStatus(*refused);
  if (!registry_.Erase(caller.principal, request.world_id())) {
    return ToGrpcStatus(WorldNotFound(request.world_id()));
  }
  spdlog::info("world {} deleted", request.world_id());
  return grpc::Status::OK;
}

grpc::Status WorldService::Handle(const Caller& caller, const v1::ListWorldsRequest&,
                                  v1::ListWorldsResponse* response) {
  for (const std::shared_ptr<WorldEntry>& entry : registry_.List(caller.principal)) {
    FillInfo(*entry, response->add_worlds());
  }
  return grpc::Status::OK;
}

// Raw serving (as CollisionService): the bytes are parsed by ParseRequest, so
// that a body that does not parse is INVALID_ARGUMENT naming the message type
// (gRPC's typed handlers answer it UNIMPLEMENTED with an empty message); the
// parsed request goes to Handle, then the response is serialized. Work that
// may be long (PostsWork) runs on the service's CallExecutor, so that it
// never holds one of gRPC's few callback threads, which also accept
// connections and answer health checks; a posted call whose client gave up
// or whose deadline passed while it waited for a thread is answered so
// without running.
template <typename Request, typename Response>
grpc::ServerUnaryReactor* WorldService::ServeRaw(grpc::CallbackServerContext* context,
                                                 const grpc::ByteBuffer* request_bytes,
                                                 grpc::ByteBuffer* response_bytes) {
  const auto start = std::chrono::steady_clock::now();
  struct Call {
    Request request;
    Response response;
  };
  auto call = std::make_shared<Call>();
  grpc::Status status = ParseRequest(*request_bytes, call->request);
  const auto serve = [this, context, response_bytes, call, start](grpc::Status status, bool admitted) {
    if (status.ok()) {
      Caller caller = CallerOf(*context);
      caller.admitted = admitted;
      status = Handle(caller, call->request, &call->response);
    }
    if (status.ok()) {
      bool own_buffer = false;
      status = grpc::SerializationTraits<Response>::Serialize(call->response, response_bytes, &own_buffer);
    }
    world_metrics_.Record(metrics_, RpcName<Request>(), WorldIdOf(call->request), status, call->response,
                          start);
    return status;
  };
  if (!status.ok() || !PostsWork(call->request, request_bytes->Length())) {
    return Finish(context, serve(status, false));
  }
  // Admitted before it is queued, so that admission bounds the calls waiting
  // for a call thread (and the parsed requests they hold) as it bounds those
  // running; released before the status is handed to gRPC.
  auto admitted = std::make_shared<AdmissionGuard>(
      config_.admission, Charged(AdmittedItems(call->request), config_.max_items_per_request));
  if (admitted->refused()) return Finish(context, serve(config_.admission->RefusedStatus(), true));
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  executor_.Post([this, context, reactor, serve, admitted]() mutable {
    if (config_.hooks.before_posted_world_call) config_.hooks.before_posted_world_call(*context);
    const grpc::Status status = serve(WaitedTooLong(*context), true);
    admitted.reset();
    reactor->Finish(status);
  });
  return reactor;
}

void WorldService::AttachMetrics(Metrics& metrics) {
  metrics_ = &metrics;
  metrics.AddSection([this] {
    std::size_t streams = 0;
    {
      std::lock_guard lock(streams_mu_);
      streams = streams_.size();
    }
    return world_metrics_.Render() +
           absl::StrCat(
               "# HELP collide_tick_streams Tick streams open.\n# TYPE collide_tick_streams gauge\n",
               "collide_tick_streams ", streams, "\n",
               "# HELP collide_audit_records_written_total Audit records written (journal.audit).\n"
               "# TYPE collide_audit_records_written_total counter\n",
               "collide_audit_records_written_total ", audit_log_.written(), "\n",
               "# HELP collide_audit_records_dropped_total Audit records dropped: the writer's queue "
               "was full.\n# TYPE collide_audit_records_dropped_total counter\n",
               "collide_audit_records_dropped_total ", audit_log_.dropped(), "\n");
  });
}

grpc::ServerUnaryReactor* WorldService::CreateWorld(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request,
                                                    grpc::ByteBuffer* response) {
  return ServeRaw<v1::CreateWorldRequest, v1::WorldInfo>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::DeleteWorld(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request,
                                                    grpc::ByteBuffer* response) {
  return ServeRaw<v1::DeleteWorldRequest, v1::DeleteWorldResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::ListWorlds(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  return ServeRaw<v1::ListWorldsRequest, v1::ListWorldsResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::GetWorld(grpc::CallbackServerContext* context,
                                                 const grpc::ByteBuffer* request,
                                                 grpc::ByteBuffer* response) {
  return ServeRaw<v1::GetWorldRequest, v1::WorldInfo>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::PushFrame(grpc::CallbackServerContext* context,
                                                  const grpc::ByteBuffer* request,
                                                  grpc::ByteBuffer* response) {
  return ServeRaw<v1::PushFrameRequest, v1::PushFrameResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::QueryWorld(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  return ServeRaw<v1::QueryWorldRequest, v1::QueryWorldResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::CastWorldRaysPacked(grpc::CallbackServerContext* context,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return ServeRaw<v1::CastWorldRaysPackedRequest, v1::CastWorldRaysPackedResponse>(context, request,
                                                                                   response);
}

grpc::ServerUnaryReactor* WorldService::ValidateShots(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeRaw<v1::ValidateShotsRequest, v1::ValidateShotsResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::ValidateShotsPacked(grpc::CallbackServerContext* context,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return ServeRaw<v1::ValidateShotsPackedRequest, v1::ValidateShotsResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::ValidateMoves(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeRaw<v1::ValidateMovesRequest, v1::ValidateMovesResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::GetBodies(grpc::CallbackServerContext* context,
                                                  const grpc::ByteBuffer* request,
                                                  grpc::ByteBuffer* response) {
  return ServeRaw<v1::GetBodiesRequest, v1::GetBodiesResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::ValidateProjectiles(grpc::CallbackServerContext* context,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return ServeRaw<v1::ValidateProjectilesRequest, v1::ValidateProjectilesResponse>(context, request,
                                                                                   response);
}

grpc::ServerUnaryReactor* WorldService::ValidateMelee(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeRaw<v1::ValidateMeleeRequest, v1::ValidateMeleeResponse>(context, request, response);
}

grpc::ServerUnaryReactor* WorldService::GetVisibility(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeRaw<v1::GetVisibilityRequest, v1::GetVisibilityResponse>(context, request, response);
}

Outcome WorldService::RunTick(const std::string& owner, const std::string& world,
                              const v1::TickRequest& request, std::chrono::steady_clock::time_point read_at,
                              v1::TickResponse* response) {
  const double budget_ms = request.budget_ms();
  if (!(budget_ms >= 0) || !std::isfinite(budget_ms)) {
    return InvalidField("budget_ms", "must be a finite number of milliseconds >= 0");
  }
  const double waited_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - read_at).count();
  if (budget_ms > 0 && waited_ms > budget_ms) {
    return RequestError{RequestError::Kind::kDeadlineExceeded,
                        absl::StrFormat("message %d waited %.3f ms, over its budget_ms %g: not run",
                                        request.sequence(), waited_ms, budget_ms)};
  }
  convert::ViolationList violations;
  const auto check_id = [&](const char* part, bool present, const std::string& id) {
    if (present && !id.empty() && id != world) {
      violations.Add(absl::StrCat(part, ".world_id"),
                     absl::StrCat("\"", id, "\" differs from the stream's world \"", world,
                                  "\" (the collide-world header); leave it empty"));
    }
  };
  check_id("query", request.has_query(), request.query().world_id());
  check_id("rays_packed", request.has_rays_packed(), request.rays_packed().world_id());
  check_id("shots", request.has_shots(), request.shots().world_id());
  check_id("shots_packed", request.has_shots_packed(), request.shots_packed().world_id());
  check_id("moves", request.has_moves(), request.moves().world_id());
  check_id("bodies", request.has_bodies(), request.bodies().world_id());
  check_id("projectiles", request.has_projectiles(), request.projectiles().world_id());
  check_id("melee", request.has_melee(), request.melee().world_id());
  if (!violations.empty()) return InvalidFields(std::move(violations));

  // The message's parts together, as one unary call: over
  // --max_items_per_request is refused before anything runs, so that
  // admission charges every item it runs.
  const std::size_t items = RequestItems(request);
  if (items > static_cast<std::size_t>(config_.max_items_per_request)) {
    return TooManyItems(items, config_.max_items_per_request);
  }
  const AdmissionGuard admitted(config_.admission, items);
  if (admitted.refused()) return config_.admission->Refusal();
  if (config_.hooks.before_tick_message) config_.hooks.before_tick_message(request.sequence());
  const std::shared_ptr<WorldEntry> entry = registry_.Find(owner, world);
  if (entry == nullptr) return WorldNotFound(world);
  EntryAccess access(registry_, *entry);
  if (entry->journal == nullptr) return convert::RunTickParts(access, call_limits_, request, response);
  WorldJournal& journal = *entry->journal;
  const auto serialized = journal.Serialize();
  convert::TickPartMicros micros;
  Outcome refused = convert::RunTickParts(access, call_limits_, request, response, &micros);
  if (journal.records()) journal.Record(request, *response, refused);
  journal.Audit(request, *response, micros, LatestTick(*entry));
  return refused;
}

std::int64_t WorldService::LatestTick(WorldEntry& entry) {
  std::shared_lock lock(entry.mu);
  return entry.world.latest_tick().value_or(0);
}

grpc::ServerWriteReactor<v1::AuditRecord>* WorldService::WatchAudit(grpc::CallbackServerContext* context,
                                                                    const v1::WatchAuditRequest* request) {
  const Caller caller = CallerOf(*context);
  if (Outcome refused = CheckWorldId(caller.world_header, request->world_id())) {
    return AuditWatch::Refuse(ToGrpcStatus(*refused));
  }
  {
    std::lock_guard lock(streams_mu_);
    if (draining_) {
      return AuditWatch::Refuse(
          ToGrpcStatus({RequestError::Kind::kUnavailable, "the server is shutting down"}));
    }
  }
  const std::shared_ptr<WorldEntry> entry = registry_.Find(caller.principal, request->world_id());
  if (entry == nullptr) return AuditWatch::Refuse(ToGrpcStatus(WorldNotFound(request->world_id())));
  if (entry->journal == nullptr || entry->journal->audit_trail() == nullptr) {
    return AuditWatch::Refuse(ToGrpcStatus(
        {RequestError::Kind::kFailedPrecondition,
         absl::StrCat("world \"", request->world_id(), "\" was not created with journal.audit")}));
  }
  return AuditWatch::Start(entry->journal->audit_trail());
}

void WorldService::AnswerTick(const std::string& owner, const std::string& world,
                              const v1::TickRequest& request, std::chrono::steady_clock::time_point read_at,
                              v1::TickResponse* response) {
  response->set_sequence(request.sequence());
  const Outcome refused = RunTick(owner, world, request, read_at, response);
  world_metrics_.Record(metrics_, "Tick", world, StatusOf(refused), *response, read_at);
  if (refused) *response->mutable_status() = ToRpcStatus(*refused);
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* WorldService::Tick(
    grpc::CallbackServerContext* context) {
  // The stream's world is its header's (there is no request to repeat it).
  const auto& metadata = context->client_metadata();
  const auto it = metadata.find(kWorldHeader);
  if (it == metadata.end()) {
    return TickStream::Refuse(ToGrpcStatus(
        InvalidField(kWorldHeader, "the metadata header is required on Tick: it names the stream's world")));
  }
  std::string world(it->second.data(), it->second.size());
  if (!IsWorldId(world)) return TickStream::Refuse(ToGrpcStatus(InvalidField(kWorldHeader, kWorldIdForm)));
  return TickStream::Open(*this, std::move(world), Principal(*context));
}

WorldService::~WorldService() { std::lock_guard lock(streams_mu_); }

bool WorldService::AddStream(TickStream* stream) {
  std::lock_guard lock(streams_mu_);
  if (draining_) return false;
  streams_.insert(stream);
  return true;
}

void WorldService::RemoveStream(TickStream* stream) {
  std::lock_guard lock(streams_mu_);
  streams_.erase(stream);
}

void WorldService::ResumeStarvedStreams() {
  if (starved_streams_.load(std::memory_order_relaxed) == 0 || TickBytesOver()) return;
  starved_streams_.store(0, std::memory_order_relaxed);
  // Under streams_mu_ no stream is destroyed (OnDone waits for it); each
  // takes its own lock in Resume, as Drain does.
  std::lock_guard lock(streams_mu_);
  for (TickStream* stream : streams_) stream->Resume();
}

void WorldService::Drain() {
  std::lock_guard lock(streams_mu_);
  draining_ = true;
  if (!streams_.empty()) spdlog::info("draining {} open Tick stream(s)", streams_.size());
  // A stream leaves the set in OnDone, which waits for this lock: none is
  // destroyed while it is told to drain.
  for (TickStream* stream : streams_) stream->Drain();
  audit_log_.EndAll();  // WatchAudit calls end OK, so that shutdown does not wait on them.
}

}  // namespace collide::server
