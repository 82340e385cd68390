// The world client: one blocking call per WorldService method with the
// `collide-world` header, the re-creation of lost worlds from what was kept
// (kept_world.h), and the checks that answers have the promised sizes.
// Core <-> proto conversion is convert/'s (world_encode.h).
#include "collide/world_client.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "client_internals.h"
#include "collide/v1/world.grpc.pb.h"
#include "collide/world_client_proto.h"
#include "convert/packed.h"
#include "convert/shapes.h"
#include "convert/world_encode.h"
#include "convert/world_explain.h"
#include "convert/world_movement.h"
#include "convert/world_projectiles.h"
#include "google/rpc/error_details.pb.h"
#include "rpc_status.h"
#include "world_client_impl.h"

namespace collide {

namespace pb = ::collide::v1;

namespace {

constexpr char kErrorInfoTypeUrl[] = "type.googleapis.com/google.rpc.ErrorInfo";

WorldInfo FromProto(const pb::WorldInfo& in) {
  WorldInfo out;
  out.id = in.world_id();
  out.static_elements = in.static_elements();
  out.triangles = in.triangles();
  out.degenerate_triangles = in.degenerate_triangles();
  out.bodies = in.bodies();
  out.memory_bytes = in.memory_bytes();
  out.frames_kept = in.frames_kept();
  out.latest_tick = in.latest_tick();
  out.oldest_tick = in.oldest_tick();
  out.settings = convert::SettingsFromProto(in);
  out.replica = in.replica();
  return out;
}

void ToProto(const WorldPolicy& in, pb::WorldPolicy* out) {
  if (in.max_rewind_ticks) out->set_max_rewind_ticks(*in.max_rewind_ticks);
  if (in.max_origin_offset) out->set_max_origin_offset(*in.max_origin_offset);
  if (in.default_max_speed) out->set_default_max_speed(*in.default_max_speed);
  if (in.skin_width) out->set_skin_width(*in.skin_width);
  if (in.slide_iterations) out->set_slide_iterations(*in.slide_iterations);
  if (in.move_category_mask) out->set_move_category_mask(*in.move_category_mask);
  if (in.shot_category_mask) out->set_shot_category_mask(*in.shot_category_mask);
  if (in.movement) convert::ToProto(*in.movement, out->mutable_movement());
  if (in.move_budget) convert::ToProto(*in.move_budget, out->mutable_move_budget());
  if (in.visibility) {
    pb::VisibilityPolicy* v = out->mutable_visibility();
    v->set_occluder_category_mask(in.visibility->occluder_mask);
    v->set_voxel_size(in.visibility->voxel_size);
    v->set_max_voxels(in.visibility->max_voxels);
    v->set_reuse_ticks(in.visibility->reuse_ticks);
  }
}

absl::Status SizeMismatch(std::string_view what, int answered, std::size_t asked) {
  return absl::InternalError(
      absl::StrCat("client: server answered ", answered, " ", std::string(what), " for ", asked));
}

}  // namespace

bool IsWorldNotFound(const absl::Status& status) {
  if (status.code() != absl::StatusCode::kNotFound) return false;
  const auto payload = status.GetPayload(kErrorInfoTypeUrl);
  google::rpc::ErrorInfo info;
  return payload.has_value() && info.ParseFromString(std::string(*payload)) &&
         info.reason() == "WORLD_NOT_FOUND";
}

void BuildCreateWorldRequest(const WorldSpec& spec, pb::CreateWorldRequest& out) {
  out.Clear();
  out.set_world_id(spec.id);
  for (const WorldStatic& s : spec.statics) {
    pb::StaticElement* e = out.add_statics();
    e->set_id(s.id);
    e->set_category(s.category == kAllCategories ? 0 : s.category);
    if (const Shape* shape = std::get_if<Shape>(&s.geometry)) {
      convert::ToProto(*shape, e->mutable_shape());
    } else if (const MeshData* mesh = std::get_if<MeshData>(&s.geometry)) {
      convert::ToProto(*mesh, e->mutable_mesh());
    } else {
      const MapFileRef& map = std::get<MapFileRef>(s.geometry);
      e->mutable_map_file()->set_name(map.name);
      e->mutable_map_file()->set_map(map.map);
      for (int g : map.geometry) e->mutable_map_file()->add_geometry(static_cast<pb::MapGeometry>(g));
    }
  }
  out.set_history_ticks(spec.history_ticks);
  ToProto(spec.policy, out.mutable_policy());
  if (spec.journal.audit || spec.journal.record) {
    out.mutable_journal()->set_audit(spec.journal.audit);
    out.mutable_journal()->set_record(spec.journal.record);
  }
}

absl::StatusOr<WorldClient> WorldClient::Create(std::string_view target, const ClientOptions& options,
                                                WorldClientOptions world_options) {
  absl::StatusOr<Client> client = Client::Create(target, options);
  if (!client.ok()) return client.status();
  return WorldClient(*client, std::move(world_options));
}

WorldClient::WorldClient(const Client& client, WorldClientOptions world_options)
    : impl_(std::make_unique<Impl>(ClientInternals::Channel(client), ClientInternals::Options(client),
                                   std::move(world_options))) {}
WorldClient::WorldClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WorldClient::WorldClient(WorldClient&&) noexcept = default;
WorldClient& WorldClient::operator=(WorldClient&&) noexcept = default;
WorldClient::~WorldClient() = default;

std::int64_t WorldClient::history_losses() const { return impl_->losses.load(std::memory_order_relaxed); }

absl::StatusOr<WorldInfo> CreateWorld(WorldClient& client, const pb::CreateWorldRequest& request) {
  WorldClient::Impl& impl = *client.impl_;
  pb::WorldInfo info;
  absl::Status s = impl.Call(&pb::WorldService::Stub::CreateWorld, request.world_id(), request, info);
  if (!s.ok()) return s;
  if (impl.world_options.recreate_lost_worlds) {
    std::lock_guard lock(impl.mu);
    impl.kept[request.world_id()] = KeptWorld{request, {}};
  }
  if (impl.world_options.recorder != nullptr) impl.world_options.recorder->Created(request);
  return FromProto(info);
}

absl::StatusOr<WorldInfo> WorldClient::CreateWorld(const WorldSpec& spec) {
  pb::CreateWorldRequest request;
  BuildCreateWorldRequest(spec, request);
  return collide::CreateWorld(*this, request);
}

absl::Status WorldClient::DeleteWorld(std::string_view world_id) {
  {
    std::lock_guard lock(impl_->mu);
    if (const auto it = impl_->kept.find(world_id); it != impl_->kept.end()) impl_->kept.erase(it);
  }
  pb::DeleteWorldRequest request;
  request.set_world_id(std::string(world_id));
  pb::DeleteWorldResponse response;
  return impl_->Call(&pb::WorldService::Stub::DeleteWorld, world_id, request, response);
}

absl::StatusOr<WorldInfo> WorldClient::GetWorld(std::string_view world_id) {
  pb::GetWorldRequest request;
  request.set_world_id(std::string(world_id));
  pb::WorldInfo info;
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::GetWorld, world_id, request, info);
  if (!s.ok()) return s;
  return FromProto(info);
}

absl::StatusOr<std::vector<WorldInfo>> WorldClient::ListWorlds() {
  pb::ListWorldsResponse response;
  absl::Status s = impl_->Call(&pb::WorldService::Stub::ListWorlds, "", pb::ListWorldsRequest(), response);
  if (!s.ok()) return s;
  std::vector<WorldInfo> out;
  out.reserve(response.worlds_size());
  for (const pb::WorldInfo& w : response.worlds()) out.push_back(FromProto(w));
  return out;
}

absl::StatusOr<std::int64_t> WorldClient::PushFrame(std::string_view world_id, const Frame& frame) {
  pb::PushFrameRequest request;
  request.set_world_id(std::string(world_id));
  convert::ToProto(frame, request.mutable_frame());
  pb::PushFrameResponse response;
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::PushFrame, world_id, request, response);
  if (!s.ok()) return s;
  impl_->Keep(world_id, frame);
  return response.oldest_tick();
}

void EncodeQueries(const SceneQueries& queries, pb::QueryWorldRequest& out) {
  for (const RayQuery& q : queries.rays) convert::ToProto(q, out.add_ray_casts());
  for (const ShapeCastQuery& q : queries.shape_casts) convert::ToProto(q, out.add_shape_casts());
  for (const OverlapQuery& q : queries.overlaps) convert::ToProto(q, out.add_overlaps());
}

absl::StatusOr<SceneAnswers> DecodeAnswers(const pb::QueryWorldResponse& response,
                                           const SceneQueries& queries) {
  if (response.ray_casts_size() != static_cast<int>(queries.rays.size()))
    return SizeMismatch("ray results", response.ray_casts_size(), queries.rays.size());
  if (response.shape_casts_size() != static_cast<int>(queries.shape_casts.size()))
    return SizeMismatch("shape cast results", response.shape_casts_size(), queries.shape_casts.size());
  if (response.overlaps_size() != static_cast<int>(queries.overlaps.size()))
    return SizeMismatch("overlap results", response.overlaps_size(), queries.overlaps.size());
  SceneAnswers out;
  out.rays.reserve(queries.rays.size());
  for (const pb::WorldRayResult& r : response.ray_casts()) out.rays.push_back(convert::FromProto(r));
  out.shape_casts.reserve(queries.shape_casts.size());
  for (const pb::WorldShapeCastResult& r : response.shape_casts())
    out.shape_casts.push_back(convert::FromProto(r));
  out.overlaps.reserve(queries.overlaps.size());
  for (const pb::WorldOverlapResult& r : response.overlaps()) out.overlaps.push_back(convert::FromProto(r));
  return out;
}

absl::StatusOr<std::vector<RayQueryResult>> DecodeRays(const pb::CastWorldRaysPackedResponse& response,
                                                       std::size_t n) {
  std::vector<RayQueryResult> out;
  if (!convert::DecodePacked(response, n, out)) {
    return absl::InternalError(absl::StrCat("client: malformed packed response for ", n, " rays"));
  }
  return out;
}

absl::StatusOr<std::vector<ShotVerdict>> DecodeShots(const pb::ValidateShotsResponse& response,
                                                     std::size_t n) {
  if (response.verdicts_size() != static_cast<int>(n))
    return SizeMismatch("verdicts", response.verdicts_size(), n);
  std::vector<ShotVerdict> out;
  out.reserve(n);
  for (const pb::ShotVerdict& v : response.verdicts()) out.push_back(convert::FromProto(v));
  return out;
}

absl::StatusOr<std::vector<MoveVerdict>> DecodeMoves(const pb::ValidateMovesResponse& response,
                                                     std::size_t n) {
  if (response.verdicts_size() != static_cast<int>(n))
    return SizeMismatch("verdicts", response.verdicts_size(), n);
  std::vector<MoveVerdict> out;
  out.reserve(n);
  for (const pb::MoveVerdict& v : response.verdicts()) out.push_back(convert::FromProto(v));
  return out;
}

// The verdicts of a projectile or melee response, one per request.
template <typename Verdict, typename Response>
absl::StatusOr<std::vector<Verdict>> DecodeVerdicts(const Response& response, std::size_t n) {
  if (response.verdicts_size() != static_cast<int>(n))
    return SizeMismatch("verdicts", response.verdicts_size(), n);
  std::vector<Verdict> out;
  out.reserve(n);
  for (const auto& v : response.verdicts()) out.push_back(convert::FromProto(v));
  return out;
}

absl::StatusOr<std::vector<ProjectileVerdict>> DecodeProjectiles(
    const pb::ValidateProjectilesResponse& response, std::size_t n) {
  return DecodeVerdicts<ProjectileVerdict>(response, n);
}

absl::StatusOr<std::vector<MeleeVerdict>> DecodeMelee(const pb::ValidateMeleeResponse& response,
                                                      std::size_t n) {
  return DecodeVerdicts<MeleeVerdict>(response, n);
}

absl::StatusOr<SceneAnswers> WorldClient::Query(std::string_view world_id, const SceneQueries& queries) {
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<pb::QueryWorldRequest>(&arena);
  auto* response = google::protobuf::Arena::CreateMessage<pb::QueryWorldResponse>(&arena);
  request->set_world_id(std::string(world_id));
  EncodeQueries(queries, *request);
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::QueryWorld, world_id, *request, *response);
  if (!s.ok()) return s;
  return DecodeAnswers(*response, queries);
}

absl::StatusOr<std::vector<RayQueryResult>> WorldClient::CastRaysPacked(std::string_view world_id,
                                                                        std::span<const Ray> rays,
                                                                        const QueryFilter& filter,
                                                                        std::optional<Time> at) {
  pb::CastWorldRaysPackedRequest request;
  request.set_world_id(std::string(world_id));
  convert::PackRays(rays, request.mutable_rays());
  convert::ToProto(filter, at, request.mutable_filter());
  pb::CastWorldRaysPackedResponse response;
  absl::Status s =
      impl_->CallInWorld(&pb::WorldService::Stub::CastWorldRaysPacked, world_id, request, response);
  if (!s.ok()) return s;
  return DecodeRays(response, rays.size());
}

absl::StatusOr<std::vector<ShotVerdict>> WorldClient::ValidateShots(std::string_view world_id,
                                                                    std::span<const ShotRequest> shots,
                                                                    Batch batch) {
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<pb::ValidateShotsRequest>(&arena);
  auto* response = google::protobuf::Arena::CreateMessage<pb::ValidateShotsResponse>(&arena);
  request->set_world_id(std::string(world_id));
  request->set_all_or_nothing(batch == Batch::kAllOrNothing);
  for (const ShotRequest& shot : shots) convert::ToProto(shot, request->add_shots());
  request->set_explain(std::ranges::any_of(shots, &ShotRequest::explain));
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::ValidateShots, world_id, *request, *response);
  if (!s.ok()) return s;
  return DecodeShots(*response, shots.size());
}

absl::StatusOr<std::vector<ShotVerdict>> WorldClient::ValidateShotsPacked(std::string_view world_id,
                                                                          std::span<const ShotRequest> shots,
                                                                          Batch batch) {
  pb::ValidateShotsPackedRequest request;
  request.set_world_id(std::string(world_id));
  request.set_all_or_nothing(batch == Batch::kAllOrNothing);
  convert::EncodePacked(shots, &request);
  google::protobuf::Arena arena;
  auto* response = google::protobuf::Arena::CreateMessage<pb::ValidateShotsResponse>(&arena);
  absl::Status s =
      impl_->CallInWorld(&pb::WorldService::Stub::ValidateShotsPacked, world_id, request, *response);
  if (!s.ok()) return s;
  return DecodeShots(*response, shots.size());
}

absl::StatusOr<std::vector<MoveVerdict>> WorldClient::ValidateMoves(std::string_view world_id,
                                                                    std::span<const MoveRequest> moves,
                                                                    Batch batch) {
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<pb::ValidateMovesRequest>(&arena);
  auto* response = google::protobuf::Arena::CreateMessage<pb::ValidateMovesResponse>(&arena);
  request->set_world_id(std::string(world_id));
  request->set_all_or_nothing(batch == Batch::kAllOrNothing);
  for (const MoveRequest& move : moves) convert::ToProto(move, request->add_moves());
  request->set_explain(std::ranges::any_of(moves, &MoveRequest::explain));
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::ValidateMoves, world_id, *request, *response);
  if (!s.ok()) return s;
  return DecodeMoves(*response, moves.size());
}

absl::StatusOr<BodiesResult> WorldClient::GetBodies(std::string_view world_id, std::optional<Time> at,
                                                    std::span<const std::int64_t> ids) {
  pb::GetBodiesRequest request;
  request.set_world_id(std::string(world_id));
  convert::ToProto(at, ids, &request);
  pb::GetBodiesResponse response;
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::GetBodies, world_id, request, response);
  if (!s.ok()) return s;
  return convert::FromProto(response);
}

absl::StatusOr<VisibilityResult> WorldClient::GetVisibility(std::string_view world_id,
                                                            const VisibilityRequest& request) {
  pb::GetVisibilityRequest wire;
  wire.set_world_id(std::string(world_id));
  convert::ToProto(request, &wire);
  pb::GetVisibilityResponse response;
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::GetVisibility, world_id, wire, response);
  if (!s.ok()) return s;
  return convert::FromProto(response);
}

absl::StatusOr<std::vector<ProjectileVerdict>> WorldClient::ValidateProjectiles(
    std::string_view world_id, std::span<const ProjectileRequest> projectiles, Batch batch) {
  pb::ValidateProjectilesRequest request;
  request.set_world_id(std::string(world_id));
  request.set_all_or_nothing(batch == Batch::kAllOrNothing);
  for (const ProjectileRequest& p : projectiles) convert::ToProto(p, request.add_projectiles());
  pb::ValidateProjectilesResponse response;
  absl::Status s =
      impl_->CallInWorld(&pb::WorldService::Stub::ValidateProjectiles, world_id, request, response);
  if (!s.ok()) return s;
  return DecodeProjectiles(response, projectiles.size());
}

absl::StatusOr<std::vector<MeleeVerdict>> WorldClient::ValidateMelee(std::string_view world_id,
                                                                     std::span<const MeleeRequest> swings,
                                                                     Batch batch) {
  pb::ValidateMeleeRequest request;
  request.set_world_id(std::string(world_id));
  request.set_all_or_nothing(batch == Batch::kAllOrNothing);
  for (const MeleeRequest& m : swings) convert::ToProto(m, request.add_melee());
  pb::ValidateMeleeResponse response;
  absl::Status s = impl_->CallInWorld(&pb::WorldService::Stub::ValidateMelee, world_id, request, response);
  if (!s.ok()) return s;
  return DecodeMelee(response, swings.size());
}

}  // namespace collide
