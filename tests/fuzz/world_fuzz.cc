// libFuzzer target over the world service's request path, without gRPC.
// Byte 0 picks the call: the RPC (CreateWorld, PushFrame, QueryWorld,
// CastWorldRaysPacked, ValidateShots, ValidateShotsPacked, ValidateMoves,
// GetWorld, DeleteWorld, ListWorlds, one Tick message, ValidateProjectiles,
// ValidateMelee) is its low 6 bits mod 13, bit 7 the `collide-world`
// header: 0 equal to the request's world id, 1
// absent (bit 6 0) or "other" (bit 6 1). The rest is the message's wire bytes
// (what gRPC hands the handler), parsed by collide::server::ParseRequest (the
// parse step of every unary method, which must agree with protobuf) and run
// through WorldService::Handle, the function every unary method runs after
// parsing, or WorldService::AnswerTick, a Tick stream's per-message handler.
//
// Every input runs against the same fresh state: one world "fuzz" (a wall
// mesh, a ball, two bodies with hitboxes pushed at tick 1) re-created before
// each input, so that a failing input reproduces alone. Each answer must be:
//   OK:  one result per item (queries, rays, shots, moves) and no NaN
//        anywhere in the response;
//   INVALID_ARGUMENT: a google.rpc.BadRequest with at least one violation,
//        every field path well-formed and naming fields of the request (or
//        the "collide-world" header, or the final "..." count entry), every
//        [index] inside the array it indexes;
//   NOT_FOUND: ErrorInfo WORLD_NOT_FOUND (domain collide.v1), and only for a
//        world id other than the one that exists;
//   ALREADY_EXISTS: only a CreateWorld of the existing world's id;
//   FAILED_PRECONDITION: only a frame, its message naming the frame's tick
//        and the latest one;
//   RESOURCE_EXHAUSTED: the message names the limit (a --flag);
//   DEADLINE_EXCEEDED: only a Tick message with a budget_ms > 0;
// and every request that is not a successful CreateWorld, DeleteWorld or
// frame leaves the world's statistics (GetWorld) unchanged: a rejected
// request changes nothing that is stored (world.proto). Anything else aborts,
// which libFuzzer reports as a crash.
//
// Seeds: tests/fuzz/corpus/world_fuzz/, made by tests/fuzz/make_world_seeds.sh.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "collide/v1/world.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/util/message_differencer.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "server/logging.h"
#include "server/service.h"
#include "server/world_service.h"
#include "tests/fuzz/request_parse_check.h"

namespace collide::server {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

constexpr char kWorld[] = "fuzz";

[[noreturn]] void Fail(const std::string& what, const grpc::Status& status) {
  std::fprintf(stderr, "world_fuzz: invariant violated: %s (status %d: %s)\n", what.c_str(),
               static_cast<int>(status.error_code()), status.error_message().c_str());
  std::abort();
}

WorldService& Service() {
  static WorldService* service = [] {
    (void)ConfigureLogging("warn", "text");    // Not a line per world created,
    google::protobuf::SetLogHandler(nullptr);  // nor per string that is not UTF-8.
    WorldServiceConfig config;
    // Small enough that fuzzed inputs reach every limit now and then.
    config.limits.max_triangles_per_world = 64;
    config.limits.max_bodies_per_world = 8;
    config.limits.max_parts_per_body = 4;
    config.limits.max_history_ticks = 8;
    config.limits.max_worlds = 3;
    config.limits.memory_budget_bytes = 1 << 20;
    config.limits.idle_ttl = absl::ZeroDuration();
    config.max_items_per_request = 64;
    config.call_threads = 1;
    return new WorldService(config);
  }();
  return *service;
}

WorldService::Caller Caller(std::string_view world_id) { return {"", world_id}; }

// The world every input starts from, made by the service's own calls (which
// must succeed): a wall at x = 10 (two triangles), a ball at (5, 4, 1) (the
// occluder of the world's visibility policy), the
// shooter (body 1, with a movement capsule) and the target (body 2) with a
// head sphere and a chest capsule at tick 1.
void ResetWorld() {
  WorldService& service = Service();
  for (const auto& entry : service.registry().List("")) service.registry().Erase("", entry->id);
  v1::CreateWorldRequest create;
  create.set_world_id(kWorld);
  create.set_history_ticks(4);
  v1::StaticElement* wall = create.add_statics();
  wall->set_id(10);
  for (double c : {10, -5, 0, 10, 5, 0, 10, 5, 4, 10, -5, 4}) wall->mutable_mesh()->add_vertices(c);
  for (int i : {0, 1, 2, 0, 2, 3}) wall->mutable_mesh()->add_indices(i);
  v1::StaticElement* ball = create.add_statics();
  ball->set_id(11);
  ball->mutable_shape()->mutable_sphere()->mutable_center()->set_x(5);
  ball->mutable_shape()->mutable_sphere()->mutable_center()->set_y(4);
  ball->mutable_shape()->mutable_sphere()->mutable_center()->set_z(1);
  ball->mutable_shape()->mutable_sphere()->set_radius(1);
  // The ball, alone in its category, occludes (GetVisibility walks its voxels).
  ball->set_category(2);
  create.mutable_policy()->mutable_visibility()->set_occluder_category_mask(2);
  create.mutable_policy()->mutable_visibility()->set_voxel_size(0.25);
  create.mutable_policy()->mutable_visibility()->set_max_voxels(4096);  // the build's reservation.
  // Answers kept between calls (reuse_ticks): inputs that add and remove
  // bodies, ask at past times and for some observers drive its memory.
  create.mutable_policy()->mutable_visibility()->set_reuse_ticks(3);
  v1::WorldInfo info;
  if (grpc::Status s = service.Handle(Caller(kWorld), create, &info); !s.ok()) Fail("creating the world", s);

  v1::PushFrameRequest push;
  push.set_world_id(kWorld);
  v1::Frame* frame = push.mutable_frame();
  frame->set_tick(1);
  for (int id : {1, 2}) {
    v1::BodyUpdate* body = frame->add_bodies();
    body->set_id(id);
    body->mutable_pose()->mutable_position()->set_x(id == 1 ? 0 : 5);
    v1::BodyPart* head = body->add_parts();
    head->mutable_shape()->mutable_sphere()->set_radius(0.3);
    head->mutable_local()->mutable_position()->set_z(1.7);
    v1::BodyPart* chest = body->add_parts();
    chest->set_id(1);
    v1::Capsule* capsule = chest->mutable_shape()->mutable_capsule();
    capsule->mutable_a()->set_z(0.5), capsule->mutable_b()->set_z(1.3), capsule->set_radius(0.4);
    if (id == 1) {
      v1::Capsule* move = body->mutable_movement_shape()->mutable_capsule();
      move->mutable_a()->set_z(0.4), move->mutable_b()->set_z(1.4), move->set_radius(0.4);
    }
  }
  v1::PushFrameResponse pushed;
  if (grpc::Status s = service.Handle(Caller(kWorld), push, &pushed); !s.ok()) Fail("pushing tick 1", s);
}

std::optional<v1::WorldInfo> Stats() {
  v1::GetWorldRequest get;
  get.set_world_id(kWorld);
  v1::WorldInfo info;
  if (!Service().Handle(Caller(kWorld), get, &info).ok()) return std::nullopt;
  return info;
}

// True when any double or float anywhere in `m` is NaN.
bool AnyNan(const Message& m) {
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_DOUBLE:
          if (std::isnan(f->is_repeated() ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f))) return true;
          break;
        case FieldDescriptor::CPPTYPE_FLOAT:
          if (std::isnan(f->is_repeated() ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f))) return true;
          break;
        case FieldDescriptor::CPPTYPE_MESSAGE:
          if (AnyNan(f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f))) return true;
          break;
        default:
          break;
      }
    }
  }
  return false;
}

// "" when the core's mesh path `rest` (docs/worlds.md, "The service": mesh
// paths count vertices and triangles, not doubles: "vertices[12].x", "triangles[5][2]", and
// "triangles" for the cap entry) lies inside `mesh`; else what is wrong.
std::string CheckMeshPath(const v1::Mesh& mesh, const std::string& rest) {
  static const std::regex* pattern =
      new std::regex(R"(^(vertices\[([0-9]+)\]\.[xyz]|triangles\[([0-9]+)\]\[[0-2]\]|triangles)$)");
  std::smatch match;
  if (!std::regex_match(rest, match, *pattern)) return "malformed mesh path";
  if (match[2].matched && std::stoull(match[2]) >= static_cast<std::size_t>(mesh.vertices_size() / 3)) {
    return "vertex past the end";
  }
  if (match[3].matched && std::stoull(match[3]) >= static_cast<std::size_t>(mesh.indices_size() / 3)) {
    return "triangle past the end";
  }
  return "";
}

// "" when `path` names fields of `request` ("frame.bodies[3].pose.rotation"),
// each [index] inside its repeated field, or a mesh's core path below a Mesh
// (CheckMeshPath); else what is wrong.
std::string CheckPath(const Message& request, const std::string& path) {
  static const std::regex* step_pattern = new std::regex(R"(^[a-z_]+(\[[0-9]+\])?$)");
  const Message* m = &request;
  std::size_t start = 0;
  while (start <= path.size()) {
    if (m != nullptr && m->GetDescriptor() == v1::Mesh::descriptor()) {
      const std::string rest = path.substr(start);
      if (rest != "vertices" && rest != "indices")
        return CheckMeshPath(static_cast<const v1::Mesh&>(*m), rest);
    }
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string step = path.substr(start, dot - start);
    start = dot + 1;
    if (!std::regex_match(step, *step_pattern)) return "malformed";
    const std::size_t bracket = step.find('[');
    const std::string name = step.substr(0, bracket);
    if (m == nullptr) return "'" + name + "' below a scalar";
    const FieldDescriptor* f = m->GetDescriptor()->FindFieldByName(name);
    if (f == nullptr) return "no field '" + name + "' in " + m->GetTypeName();
    const google::protobuf::Reflection* r = m->GetReflection();
    if (bracket != std::string::npos) {
      if (!f->is_repeated()) return "index on the non-repeated '" + name + "'";
      const int index = std::atoi(step.c_str() + bracket + 1);
      if (index >= r->FieldSize(*m, f)) return "index past the end of '" + name + "'";
      m = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE ? &r->GetRepeatedMessage(*m, f, index) : nullptr;
    } else if (f->is_repeated()) {
      m = nullptr;  // The whole list (e.g. its length is wrong).
    } else {
      m = f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE ? &r->GetMessage(*m, f) : nullptr;
    }
  }
  return "";
}

// The details a status carries, as a google.rpc.Status whose code is the
// status's.
google::rpc::Status Details(const grpc::Status& status) {
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) Fail("details are not a google.rpc.Status", status);
  if (details.code() != static_cast<int>(status.error_code())) Fail("details code differs", status);
  return details;
}

void CheckBadRequest(const Message& request, const grpc::Status& status) {
  int violations = 0;
  const google::rpc::Status details = Details(status);
  for (const auto& any : details.details()) {
    google::rpc::BadRequest bad_request;
    if (!any.UnpackTo(&bad_request)) continue;
    for (const auto& v : bad_request.field_violations()) {
      ++violations;
      if (v.description().empty()) Fail("empty description for " + v.field(), status);
      if (v.field() == "..." || v.field() == kWorldHeader) continue;
      if (std::string problem = CheckPath(request, v.field()); !problem.empty()) {
        Fail("field path '" + v.field() + "': " + problem, status);
      }
    }
  }
  if (violations == 0) Fail("no BadRequest violation listed", status);
}

void CheckNotFound(const std::string& world_id, const grpc::Status& status) {
  if (world_id == kWorld) Fail("NOT_FOUND for the world that exists", status);
  const google::rpc::Status details = Details(status);
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    if (any.UnpackTo(&info) && info.reason() == "WORLD_NOT_FOUND" && info.domain() == "collide.v1") return;
  }
  Fail("NOT_FOUND without ErrorInfo WORLD_NOT_FOUND", status);
}

// What a call may answer besides OK, and what it is checked against.
struct Expect {
  const Message* request;  // For the field paths.
  std::string world_id;    // The world it names.
  bool create = false;
  const v1::Frame* frame = nullptr;  // Its frame, if any.
  std::optional<v1::WorldInfo> before;
  bool tick = false;  // A Tick message (DEADLINE_EXCEEDED possible).
  double budget_ms = 0;
};

void CheckError(const Expect& e, const grpc::Status& status) {
  // WORLD_FUZZ_PRINT=1: each error as the input got it (to read what seeds reach).
  if (std::getenv("WORLD_FUZZ_PRINT") != nullptr) {
    google::rpc::Status details;
    details.ParseFromString(status.error_details());
    std::fprintf(stderr, "world_fuzz: %s: %d %s\n", e.request->GetTypeName().c_str(),
                 static_cast<int>(status.error_code()), details.ShortDebugString().c_str());
  }
  switch (status.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT:
      CheckBadRequest(*e.request, status);
      break;
    case grpc::StatusCode::NOT_FOUND:
      CheckNotFound(e.world_id, status);
      break;
    case grpc::StatusCode::ALREADY_EXISTS:
      if (!e.create || e.world_id != kWorld) Fail("ALREADY_EXISTS but not a create of the world", status);
      break;
    case grpc::StatusCode::FAILED_PRECONDITION: {
      if (e.frame == nullptr || !e.before.has_value()) Fail("FAILED_PRECONDITION without a frame", status);
      const std::string& message = status.error_message();
      if (message.find(std::to_string(e.frame->tick())) == std::string::npos ||
          message.find(std::to_string(e.before->latest_tick())) == std::string::npos) {
        Fail("FAILED_PRECONDITION not naming both ticks", status);
      }
      break;
    }
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      if (status.error_message().find("--") == std::string::npos)
        Fail("RESOURCE_EXHAUSTED naming no limit", status);
      break;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      if (!e.tick || !(e.budget_ms > 0)) Fail("DEADLINE_EXCEEDED without a budget", status);
      break;
    default:
      Fail("unexpected status code", status);
  }
}

template <typename List>
void CheckCount(const List& results, std::size_t items, const grpc::Status& s, const char* what) {
  if (static_cast<std::size_t>(results.size()) != items)
    Fail(std::string(what) + ": result count != items", s);
}

// An OK answer's shape: one result per item.
void CheckOk(const v1::CreateWorldRequest& q, const v1::WorldInfo& r, const grpc::Status& s) {
  if (r.world_id() != q.world_id()) Fail("created world's info names another id", s);
}
void CheckOk(const v1::GetWorldRequest& q, const v1::WorldInfo& r, const grpc::Status& s) {
  if (r.world_id() != q.world_id()) Fail("world info names another id", s);
}
void CheckOk(const v1::DeleteWorldRequest&, const v1::DeleteWorldResponse&, const grpc::Status&) {}
void CheckOk(const v1::ListWorldsRequest&, const v1::ListWorldsResponse&, const grpc::Status&) {}
void CheckOk(const v1::PushFrameRequest&, const v1::PushFrameResponse&, const grpc::Status&) {}
void CheckOk(const v1::QueryWorldRequest& q, const v1::QueryWorldResponse& r, const grpc::Status& s) {
  CheckCount(r.ray_casts(), q.ray_casts_size(), s, "ray_casts");
  CheckCount(r.shape_casts(), q.shape_casts_size(), s, "shape_casts");
  CheckCount(r.overlaps(), q.overlaps_size(), s, "overlaps");
}
void CheckOk(const v1::CastWorldRaysPackedRequest& q, const v1::CastWorldRaysPackedResponse& r,
             const grpc::Status& s) {
  const std::size_t rays = static_cast<std::size_t>(q.rays_size()) / 7;
  if (q.rays_size() % 7 != 0) Fail("OK for rays not a multiple of 7 doubles", s);
  CheckCount(r.hit(), rays, s, "hit");
  CheckCount(r.distance(), rays, s, "distance");
  CheckCount(r.point(), 3 * rays, s, "point");
  CheckCount(r.normal(), 3 * rays, s, "normal");
  CheckCount(r.target_kind(), rays, s, "target_kind");
  CheckCount(r.target_id(), rays, s, "target_id");
  CheckCount(r.target_index(), rays, s, "target_index");
}
void CheckOk(const v1::ValidateShotsRequest& q, const v1::ValidateShotsResponse& r, const grpc::Status& s) {
  CheckCount(r.verdicts(), q.shots_size(), s, "shots");
}
void CheckOk(const v1::ValidateShotsPackedRequest& q, const v1::ValidateShotsResponse& r,
             const grpc::Status& s) {
  CheckCount(r.verdicts(), q.shooter_ids_size(), s, "packed shots");
}
void CheckOk(const v1::ValidateMovesRequest& q, const v1::ValidateMovesResponse& r, const grpc::Status& s) {
  CheckCount(r.verdicts(), q.moves_size(), s, "moves");
}
void CheckOk(const v1::ValidateProjectilesRequest& q, const v1::ValidateProjectilesResponse& r,
             const grpc::Status& s) {
  CheckCount(r.verdicts(), q.projectiles_size(), s, "projectiles");
}
void CheckOk(const v1::ValidateMeleeRequest& q, const v1::ValidateMeleeResponse& r, const grpc::Status& s) {
  CheckCount(r.verdicts(), q.melee_size(), s, "melee");
}
// Every body once, sorted; asked ids either answered or missing.
void CheckOk(const v1::GetBodiesRequest& q, const v1::GetBodiesResponse& r, const grpc::Status& s) {
  for (int i = 1; i < r.bodies_size(); ++i) {
    if (r.bodies(i - 1).id() >= r.bodies(i).id()) Fail("bodies not sorted by id, or repeated", s);
  }
  if (q.body_ids_size() > 0 && r.bodies_size() + r.missing_size() > q.body_ids_size())
    Fail("more bodies and missing ids than asked", s);
}
// One set per observer asked, never containing the observer.
void CheckOk(const v1::GetVisibilityRequest& q, const v1::GetVisibilityResponse& r, const grpc::Status& s) {
  if (q.observers_size() > 0) CheckCount(r.sets(), q.observers_size(), s, "visibility sets");
  for (const v1::VisibilitySet& set : r.sets()) {
    for (std::int64_t id : set.visible())
      if (id == set.observer()) Fail("an observer in its own visibility set", s);
  }
  if (r.hidden() > r.pairs()) Fail("more hidden pairs than pairs", s);
}

const v1::Frame* FrameOf(const v1::PushFrameRequest& r) { return &r.frame(); }
template <typename Request>
const v1::Frame* FrameOf(const Request&) {
  return nullptr;
}

// Calls that may change what is stored when they succeed.
template <typename Request>
constexpr bool kWrites =
    std::is_same_v<Request, v1::CreateWorldRequest> || std::is_same_v<Request, v1::DeleteWorldRequest> ||
    std::is_same_v<Request, v1::PushFrameRequest>;

void CheckUnchanged(const std::optional<v1::WorldInfo>& before, const grpc::Status& status) {
  const std::optional<v1::WorldInfo> after = Stats();
  if (before.has_value() != after.has_value() ||
      (before && !google::protobuf::util::MessageDifferencer::Equals(*before, *after))) {
    Fail("the world changed: " + (before ? before->ShortDebugString() : "none") + " -> " +
             (after ? after->ShortDebugString() : "none"),
         status);
  }
}

std::optional<std::string_view> Header(std::uint8_t selector, const std::string& world_id) {
  if ((selector & 0x80) == 0) return world_id;
  if ((selector & 0x40) == 0) return std::nullopt;
  return "other";
}

template <typename Request, typename Response>
void Run(std::uint8_t selector, const std::uint8_t* data, std::size_t size) {
  Request request;
  if (!ParseChecked(data, size, request, Fail)) return;
  std::string world_id;
  if constexpr (!std::is_same_v<Request, v1::ListWorldsRequest>) world_id = request.world_id();
  Expect expect{&request, world_id, std::is_same_v<Request, v1::CreateWorldRequest>, FrameOf(request),
                Stats()};
  Response response;
  const grpc::Status status = Service().Handle({"", Header(selector, world_id)}, request, &response);
  if (status.ok()) {
    CheckOk(request, response, status);
    if (AnyNan(response)) Fail("NaN in the response", status);
  } else {
    CheckError(expect, status);
  }
  if (!status.ok() || !kWrites<Request>) CheckUnchanged(expect.before, status);
}

// One Tick message on the world's stream (the stream's world is its header's,
// checked by Tick before any message: always the world here).
void RunTick(const std::uint8_t* data, std::size_t size) {
  v1::TickRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return;
  const Expect expect{.request = &request,
                      .world_id = kWorld,
                      .frame = request.has_frame() ? &request.frame() : nullptr,
                      .before = Stats(),
                      .tick = true,
                      .budget_ms = request.budget_ms()};
  v1::TickResponse response;
  Service().AnswerTick("", kWorld, request, std::chrono::steady_clock::now(), &response);
  const grpc::Status status =
      response.has_status() ? grpc::Status(static_cast<grpc::StatusCode>(response.status().code()),
                                           response.status().message(), response.status().SerializeAsString())
                            : grpc::Status::OK;
  if (response.sequence() != request.sequence()) Fail("sequence not echoed", status);
  if (AnyNan(response)) Fail("NaN in the response", status);
  if (!status.ok()) CheckError(expect, status);
  // Each part that answered answered in full; with no error, every part did.
  const auto part = [&](bool asked, bool answered, const char* name) {
    if (status.ok() && asked != answered) Fail(std::string(name) + ": asked and answered differ", status);
    if (!asked && answered) Fail(std::string(name) + ": answered but not asked", status);
  };
  part(request.has_frame(), response.has_frame(), "frame");
  part(request.has_query(), response.has_query(), "query");
  part(request.has_rays_packed(), response.has_rays_packed(), "rays_packed");
  part(request.has_shots(), response.has_shots(), "shots");
  part(request.has_shots_packed(), response.has_shots_packed(), "shots_packed");
  part(request.has_moves(), response.has_moves(), "moves");
  part(request.has_projectiles(), response.has_projectiles(), "projectiles");
  part(request.has_melee(), response.has_melee(), "melee");
  if (response.has_query()) CheckOk(request.query(), response.query(), status);
  if (response.has_rays_packed()) CheckOk(request.rays_packed(), response.rays_packed(), status);
  if (response.has_shots()) CheckOk(request.shots(), response.shots(), status);
  if (response.has_shots_packed()) CheckOk(request.shots_packed(), response.shots_packed(), status);
  if (response.has_moves()) CheckOk(request.moves(), response.moves(), status);
  if (response.has_projectiles()) CheckOk(request.projectiles(), response.projectiles(), status);
  if (response.has_melee()) CheckOk(request.melee(), response.melee(), status);
  if (!response.has_frame()) CheckUnchanged(expect.before, status);
}

}  // namespace
}  // namespace collide::server

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide;
  using namespace collide::v1;
  if (size < 1) return 0;
  server::ResetWorld();
  const std::uint8_t s = data[0];
  const std::uint8_t* d = data + 1;
  const std::size_t n = size - 1;
  // The unary RPC of each selector (its low six bits mod 15; make_world_seeds.sh
  // lists them); 10 is a Tick message, 11 to 14 the calls added after it (so
  // that older seeds keep their meaning).
  using RunRpc = void (*)(std::uint8_t, const std::uint8_t*, std::size_t);
  static constexpr RunRpc kRpcs[] = {
      server::Run<CreateWorldRequest, WorldInfo>,
      server::Run<PushFrameRequest, PushFrameResponse>,
      server::Run<QueryWorldRequest, QueryWorldResponse>,
      server::Run<CastWorldRaysPackedRequest, CastWorldRaysPackedResponse>,
      server::Run<ValidateShotsRequest, ValidateShotsResponse>,
      server::Run<ValidateShotsPackedRequest, ValidateShotsResponse>,
      server::Run<ValidateMovesRequest, ValidateMovesResponse>,
      server::Run<GetWorldRequest, WorldInfo>,
      server::Run<DeleteWorldRequest, DeleteWorldResponse>,
      server::Run<ListWorldsRequest, ListWorldsResponse>,
  };
  const std::size_t rpc = (s & 0x3f) % 15;
  if (rpc < std::size(kRpcs)) {
    kRpcs[rpc](s, d, n);
  } else if (rpc == 10) {
    server::RunTick(d, n);
  } else if (rpc == 11) {
    server::Run<ValidateProjectilesRequest, ValidateProjectilesResponse>(s, d, n);
  } else if (rpc == 12) {
    server::Run<ValidateMeleeRequest, ValidateMeleeResponse>(s, d, n);
  } else if (rpc == 13) {
    server::Run<GetBodiesRequest, GetBodiesResponse>(s, d, n);
  } else {
    server::Run<GetVisibilityRequest, GetVisibilityResponse>(s, d, n);
  }
  return 0;
}
