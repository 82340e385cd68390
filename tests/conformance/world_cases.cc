// The world conformance cases (see world_cases.h). Requests are written in
// proto3 JSON; the answers come from a core World fed them through convert/,
// the way the server does (server/world_service.cc). Geometry is axis-aligned
// with hits well inside faces, so no answer hangs on a tie-break.
#include "conformance/world_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collide/melee.h"
#include "collide/projectile.h"
#include "collide/v1/world.pb.h"
#include "collide/world.h"
#include "conformance/golden_compare.h"
#include "conformance/golden_json.h"
#include "convert/violations.h"
#include "convert/world_explain.h"
#include "convert/world_packed.h"
#include "convert/world_projectiles.h"
#include "convert/world_requests.h"
#include "convert/world_results.h"

namespace collide::conformance {
namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::cerr << "world case generator: " << what << "\n";
  std::abort();
}

template <typename Message>
Message FromJson(const Json& j) {
  Message m;
  if (const std::string error = FromGoldenJson(j, m); !error.empty()) {
    Fail("bad request JSON " + j.dump() + ": " + error);
  }
  return m;
}

Json ToJson(const google::protobuf::Message& m) {
  Json j = GoldenJson(m);
  if (j.is_null()) Fail("cannot print a response");
  IntsAsNumbers(j);
  return j;
}

Json Paths(const convert::ViolationList& violations) {
  Json out = Json::array();
  for (const Violation& v : violations.kept()) out.push_back(v.field);
  return out;
}

// ------------------------------------------------------------ request JSON

Json V(double x, double y, double z) { return {{"x", x}, {"y", y}, {"z", z}}; }
Json At(std::int64_t tick, double fraction = 0.0) { return {{"tick", tick}, {"fraction", fraction}}; }
Json SphereJ(Json center, double r) { return {{"sphere", {{"center", center}, {"radius", r}}}}; }
Json CapsuleJ(Json a, Json b, double r) { return {{"capsule", {{"a", a}, {"b", b}, {"radius", r}}}}; }
Json AabbJ(Json min, Json max) { return {{"aabb", {{"min", min}, {"max", max}}}}; }
Json Pose(Json position) { return {{"position", position}}; }
Json Ray(Json origin, Json direction) { return {{"origin", origin}, {"direction", direction}}; }

// A player: head (part 0, a sphere placed by its local pose), chest (1, a
// capsule), legs (2, a box), standing on z = 0 at its body origin.
Json Hitboxes() {
  return Json::array({{{"id", 0}, {"shape", SphereJ(V(0, 0, 0), 0.15)}, {"local", Pose(V(0, 0, 1.7))}},
                      {{"id", 1}, {"shape", CapsuleJ(V(0, 0, 1.0), V(0, 0, 1.4), 0.25)}},
                      {{"id", 2}, {"shape", AabbJ(V(-0.2, -0.2, 0), V(0.2, 0.2, 0.9))}}});
}
constexpr std::uint64_t kPlayers = 8;  // the players' category bit.
Json Player(std::int64_t id, Json position) {
  return {{"id", id}, {"pose", Pose(position)}, {"parts", Hitboxes()}, {"category", kPlayers}};
}

// The arena: a 20 x 20 floor mesh (element 1, category 1, with one zero-area
// triangle), a wall (2, category 2: x 4..4.5, y -3..3, z 0..3) and a
// pillar hull (3, category 4: x -6..-5, y -0.5..0.5, z 0..2).
Json ArenaStatics() {
  Json pillar = Json::array();
  for (double x : {-6.0, -5.0})
    for (double y : {-0.5, 0.5})
      for (double z : {0.0, 2.0}) pillar.push_back(V(x, y, z));
  return Json::array({{{"id", 1},
                       {"category", 1},
                       {"mesh",
                        {{"vertices", {-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0, 0, -10, 0}},
                         {"indices", {0, 1, 2, 0, 2, 3, 0, 4, 1}}}}},
                      {{"id", 2}, {"category", 2}, {"shape", AabbJ(V(4, -3, 0), V(4.5, 3, 3))}},
                      {{"id", 3}, {"category", 4}, {"shape", {{"convex_hull", {{"vertices", pillar}}}}}}});
}

// ------------------------------------------------------------------ script

// One case: the steps, and the core World that answers them as the server
// would (one world per script).
class Script {
 public:
  Script(std::string name, std::string world_id) : name_(std::move(name)), id_(std::move(world_id)) {}

  const std::string& id() const { return id_; }

  void Create(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::CreateWorldRequest>(request);
    if (in.history_ticks() > kWorldMaxHistoryTicks) Fail(name_ + ": use CreateError for the limit");
    convert::ViolationList violations;
    WorldSettings settings;
    convert::DecodeSettings(in, std::min(WorldSettings{}.history_ticks, kWorldMaxHistoryTicks), settings,
                            violations);
    std::vector<StaticElement> statics;
    convert::DecodeArena arena;
    if (violations.empty()) convert::DecodeStatics(in, statics, arena, violations);
    if (!violations.empty()) {
      Error("CreateWorld", request, "INVALID_ARGUMENT", Paths(violations));
      return;
    }
    creation_ = in;
    world_.emplace(settings, statics);
    triangles_ = degenerate_ = 0;
    for (const StaticElement& e : statics) {
      if (const auto* mesh = std::get_if<std::shared_ptr<const TriangleMesh>>(&e.geometry)) {
        triangles_ += static_cast<std::int64_t>((*mesh)->triangle_count());
        degenerate_ += static_cast<std::int64_t>((*mesh)->degenerate_count());
      }
    }
    bodies_.clear();
    Ok("CreateWorld", request, Info());
  }

  void Get() { Ok("GetWorld", {{"world_id", id_}}, Info()); }
  void List() { Ok("ListWorlds", Json::object(), {{"worlds", Json::array({Info()})}}); }
  void Delete() {
    world_.reset();
    Ok("DeleteWorld", {{"world_id", id_}}, Json::object());
  }

  // PushFrame: the answer, or INVALID_ARGUMENT / FAILED_PRECONDITION.
  void Push(Json frame) {
    const Json request = {{"world_id", id_}, {"frame", frame}};
    const auto in = FromJson<v1::Frame>(frame);
    convert::ViolationList violations;
    convert::DecodeArena arena;
    Frame decoded;
    if (!convert::DecodeFrame(in, "frame", decoded, arena, violations)) {
      Error("PushFrame", request, "INVALID_ARGUMENT", Paths(violations));
      return;
    }
    FrameError e = World().PushFrame(decoded);
    if (e.kind == FrameError::Kind::kTickNotIncreasing) {
      Error("PushFrame", request, "FAILED_PRECONDITION", nullptr);
    } else if (e.kind == FrameError::Kind::kInvalid) {
      violations.AddUnder("frame", e.problems);
      Error("PushFrame", request, "INVALID_ARGUMENT", Paths(violations));
    } else {
      Fold(in);
      Ok("PushFrame", request, {{"oldest_tick", *World().oldest_tick()}});
    }
  }

  void Query(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::QueryWorldRequest>(request);
    convert::ViolationList violations;
    convert::DecodeArena arena;
    convert::WorldQueries queries;
    if (!convert::DecodeQueries(in, queries, arena, violations)) Fail(name_ + ": a query does not decode");
    v1::QueryWorldResponse out;
    for (const RayQueryResult& r : World().RayCasts(queries.rays))
      convert::ToProto(Valid(r), out.add_ray_casts());
    for (const ShapeCastResult& r : World().ShapeCasts(queries.shape_casts))
      convert::ToProto(Valid(r), out.add_shape_casts());
    for (const OverlapQueryResult& r : World().Overlaps(queries.overlaps))
      convert::ToProto(Valid(r), out.add_overlaps());
    Json response = ToJson(out);
    for (int i = 0; i < out.shape_casts_size(); ++i) {
      if (!out.shape_casts(i).has_target()) response["shape_casts"][i]["target"] = nullptr;
    }
    for (int i = 0; i < out.overlaps_size(); ++i) {
      for (int j = 0; j < out.overlaps(i).overlaps_size(); ++j) {
        if (!out.overlaps(i).overlaps(j).has_contact())
          response["overlaps"][i]["overlaps"][j]["contact"] = nullptr;
      }
    }
    Ok("QueryWorld", request, response);
  }

  void RaysPacked(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::CastWorldRaysPackedRequest>(request);
    convert::ViolationList violations;
    std::vector<RayQuery> rays;
    if (!convert::DecodePacked(in, rays, violations)) Fail(name_ + ": packed rays do not decode");
    const std::vector<RayQueryResult> results = World().RayCasts(rays);
    for (const RayQueryResult& r : results) Valid(r);
    v1::CastWorldRaysPackedResponse out;
    convert::EncodePacked(results, &out);
    Ok("CastWorldRaysPacked", request, ToJson(out));
  }

  // all_or_nothing: a bad shot fails the call (world.proto); else it gets an
  // INVALID verdict.
  void Shots(Json shots, bool all_or_nothing = false, bool explain = false) {
    Json request = {{"world_id", id_}, {"shots", shots}};
    if (all_or_nothing) request["all_or_nothing"] = true;
    if (explain) request["explain"] = true;
    const auto in = FromJson<v1::ValidateShotsRequest>(request);
    convert::ViolationList violations;
    std::vector<ShotRequest> decoded;
    convert::DecodeShots(in, decoded, violations);
    Judge("ValidateShots", request, decoded, all_or_nothing, violations,
          [&violations](std::size_t i, std::vector<Violation>& p) {
            convert::AddItemProblems("shots", i, p, violations);
          });
  }

  void ShotsPacked(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::ValidateShotsPackedRequest>(request);
    convert::ViolationList violations;
    std::vector<ShotRequest> decoded;
    if (!convert::DecodePacked(in, decoded, violations)) Fail(name_ + ": packed shots do not decode");
    Judge("ValidateShotsPacked", request, decoded, in.all_or_nothing(), violations,
          [&violations](std::size_t i, std::vector<Violation>& p) {
            convert::AddPackedShotProblems(i, p, violations);
          });
  }

  void Moves(Json moves, bool all_or_nothing = false, bool explain = false) {
    Json request = {{"world_id", id_}, {"moves", moves}};
    if (all_or_nothing) request["all_or_nothing"] = true;
    if (explain) request["explain"] = true;
    const auto in = FromJson<v1::ValidateMovesRequest>(request);
    convert::ViolationList violations;
    std::vector<MoveRequest> decoded;
    convert::DecodeMoves(in, decoded, violations);
    const std::vector<MoveVerdict> verdicts = World().ValidateMoves(decoded);
    for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
      std::vector<Violation> problems = verdicts[i].problems;
      if (verdicts[i].code == MoveCode::kInvalid) convert::AddItemProblems("moves", i, problems, violations);
    }
    if (!violations.empty()) return Error("ValidateMoves", request, "INVALID_ARGUMENT", Paths(violations));
    v1::ValidateMovesResponse out;
    for (const MoveVerdict& v : verdicts) convert::ToProto(v, out.add_verdicts());
    Json response = ToJson(out);
    for (int i = 0; i < out.verdicts_size(); ++i) {
      if (!out.verdicts(i).has_target()) response["verdicts"][i]["target"] = nullptr;
    }
    Ok("ValidateMoves", request, response);
  }

  // GetBodies: `request` without world_id ("at", "body_ids").
  void Bodies(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::GetBodiesRequest>(request);
    const convert::BodiesQuery query = convert::FromProto(in);
    const BodiesResult r = World().Bodies(query.at, query.ids);
    if (!r.valid) {
      Json fields = Json::array();
      for (const Violation& v : r.problems) fields.push_back(v.field);
      return Error("GetBodies", request, "INVALID_ARGUMENT", fields);
    }
    v1::GetBodiesResponse out;
    convert::ToProto(r, &out);
    Ok("GetBodies", request, ToJson(out));
  }

  // Projectile and melee verdicts (docs/projectiles.md), as moves: unset
  // messages (a verdict's hit or blocker) must be unset.
  void Projectiles(Json projectiles, bool all_or_nothing = false) {
    Json request = {{"world_id", id_}, {"projectiles", projectiles}};
    if (all_or_nothing) request["all_or_nothing"] = true;
    std::vector<ProjectileVerdict> verdicts = World().ValidateProjectiles(
        convert::DecodeProjectiles(FromJson<v1::ValidateProjectilesRequest>(request)));
    convert::ViolationList violations;
    for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
      if (!verdicts[i].problems.empty())
        convert::AddItemProblems("projectiles", i, verdicts[i].problems, violations);
    }
    if (!violations.empty())
      return Error("ValidateProjectiles", request, "INVALID_ARGUMENT", Paths(violations));
    v1::ValidateProjectilesResponse out;
    for (const ProjectileVerdict& v : verdicts) convert::ToProto(v, out.add_verdicts());
    Json response = ToJson(out);
    for (int i = 0; i < out.verdicts_size(); ++i) {
      if (!out.verdicts(i).has_hit()) response["verdicts"][i]["hit"] = nullptr;
    }
    Ok("ValidateProjectiles", request, response);
  }

  void Melee(Json melee, bool all_or_nothing = false) {
    Json request = {{"world_id", id_}, {"melee", melee}};
    if (all_or_nothing) request["all_or_nothing"] = true;
    std::vector<MeleeVerdict> verdicts =
        World().ValidateMelee(convert::DecodeMelee(FromJson<v1::ValidateMeleeRequest>(request)));
    convert::ViolationList violations;
    for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
      if (!verdicts[i].problems.empty())
        convert::AddItemProblems("melee", i, verdicts[i].problems, violations);
    }
    if (!violations.empty()) return Error("ValidateMelee", request, "INVALID_ARGUMENT", Paths(violations));
    v1::ValidateMeleeResponse out;
    for (const MeleeVerdict& v : verdicts) convert::ToProto(v, out.add_verdicts());
    Json response = ToJson(out);
    for (int i = 0; i < out.verdicts_size(); ++i) {
      if (!out.verdicts(i).has_blocker()) response["verdicts"][i]["blocker"] = nullptr;
    }
    Ok("ValidateMelee", request, response);
  }

  void Visibility(Json request) {
    request["world_id"] = id_;
    const auto in = FromJson<v1::GetVisibilityRequest>(request);
    const VisibilityResult r = World().VisibleSets(convert::DecodeVisibility(in));
    if (!r.valid) {
      convert::ViolationList violations;
      for (const Violation& v : r.problems) violations.Add(v.field, v.description);
      return Error("GetVisibility", request, "INVALID_ARGUMENT", Paths(violations));
    }
    v1::GetVisibilityResponse out;
    convert::ToProto(r, &out);
    Ok("GetVisibility", request, ToJson(out));
  }

  // The server loses every world; the client re-creates this one from its
  // creation request and the state after the latest frame, on the next call.
  void Restart() {
    steps_.push_back({{"restart_server", true}});
    convert::ViolationList violations;
    WorldSettings settings;
    convert::DecodeSettings(*creation_, std::min(WorldSettings{}.history_ticks, kWorldMaxHistoryTicks),
                            settings, violations);
    std::vector<StaticElement> statics;
    convert::DecodeArena arena;
    convert::DecodeStatics(*creation_, statics, arena, violations);
    world_.emplace(settings, statics);
    v1::Frame state;
    state.set_tick(latest_tick_);
    for (const auto& [id, body] : bodies_) *state.add_bodies() = body;
    Frame decoded;
    if (!convert::DecodeFrame(state, "frame", decoded, arena, violations) ||
        !World().PushFrame(decoded).ok()) {
      Fail(name_ + ": the re-creation frame is rejected");
    }
    history_lost_ = true;
  }

  // A step answered with an error stated here (service-level errors).
  void Error(const std::string& rpc, Json request, const std::string& code, Json fields,
             const std::string& reason = "") {
    if (request.is_object() && !request.contains("world_id") && rpc != "ListWorlds")
      request["world_id"] = id_;
    Json error = {{"code", code}};
    if (!fields.is_null()) error["field_violations"] = std::move(fields);
    if (!reason.empty()) error["reason"] = reason;
    Add({{"rpc", rpc}, {"request", std::move(request)}, {"error", std::move(error)}});
  }
  void NotFound(const std::string& rpc, Json request) {
    Error(rpc, std::move(request), "NOT_FOUND", nullptr, "WORLD_NOT_FOUND");
  }

  // One part of a Tick message, named as in TickRequest ("frame", "query",
  // "rays_packed", "shots", "shots_packed", "moves"), with what the unary
  // step of that name takes.
  struct TickPart {
    std::string name;
    Json body;
  };

  // A Tick stream opened, these messages sent one at a time, closed: each is
  // answered as the unary calls of its parts in order, until the first
  // error (field paths under the part's name, but a frame's), the parts
  // after it not run (null).
  void Tick(const std::vector<std::vector<TickPart>>& messages) {
    Json exchange = Json::array();
    for (const std::vector<TickPart>& parts : messages) {
      Json message = Json::object(), answer = Json::object();
      const bool lost = history_lost_;
      history_lost_ = false;
      bool failed = false;
      for (const TickPart& part : parts) {
        if (failed && part.name == "frame") Fail(name_ + ": a frame after a failing part");
        Json step = RunPart(part);
        message[part.name] = part.name == "frame" ? step["request"]["frame"] : step["request"];
        if (failed) {
          answer[part.name] = nullptr;
        } else if (step.contains("error")) {
          failed = true;
          Json error = step["error"];
          if (part.name != "frame" && error.contains("field_violations")) {
            for (Json& f : error["field_violations"]) f = part.name + "." + f.get<std::string>();
          }
          answer["error"] = error;
          answer[part.name] = nullptr;
        } else {
          answer[part.name] = step["response"];
        }
      }
      Json entry = {{"message", message}, {"answer", answer}};
      if (lost) entry["history_lost"] = true;
      exchange.push_back(std::move(entry));
    }
    steps_.push_back({{"tick", exchange}});
  }

  Json Done() const { return {{"name", name_}, {"steps", steps_}}; }

 private:
  collide::World& World() {
    if (!world_) Fail(name_ + ": no world");
    return *world_;
  }

  template <typename Result>
  const Result& Valid(const Result& r) {
    if (!r.valid) Fail(name_ + ": a query is invalid: " + r.problems.front().field);
    return r;
  }

  template <typename AddProblems>
  void Judge(const std::string& rpc, const Json& request, const std::vector<ShotRequest>& shots,
             bool all_or_nothing, convert::ViolationList& violations, AddProblems add) {
    const std::vector<ShotVerdict> verdicts = World().ValidateShots(shots);
    for (std::size_t i = 0; all_or_nothing && i < verdicts.size(); ++i) {
      std::vector<Violation> problems = verdicts[i].problems;
      if (verdicts[i].code == ShotCode::kInvalid) add(i, problems);
    }
    if (!violations.empty()) return Error(rpc, request, "INVALID_ARGUMENT", Paths(violations));
    v1::ValidateShotsResponse out;
    for (const ShotVerdict& v : verdicts) convert::ToProto(v, out.add_verdicts());
    Json response = ToJson(out);
    for (int i = 0; i < out.verdicts_size(); ++i) {
      if (!out.verdicts(i).has_first_hit()) response["verdicts"][i]["first_hit"] = nullptr;
    }
    Ok(rpc, request, response);
  }

  Json Info() {
    const collide::World& w = World();
    v1::WorldInfo info;
    info.set_world_id(id_);
    info.set_static_elements(creation_->statics_size());
    info.set_triangles(triangles_);
    info.set_degenerate_triangles(degenerate_);
    info.set_bodies(static_cast<int>(w.body_count()));
    info.set_latest_tick(w.latest_tick().value_or(0));
    info.set_oldest_tick(w.oldest_tick().value_or(0));
    info.set_frames_kept(static_cast<int>(w.frame_count()));
    info.set_history_ticks(w.settings().history_ticks);
    convert::ToProto(w.settings(), info.mutable_policy());
    if (w.visibility_info().built) convert::ToProto(w.visibility_info(), info.mutable_visibility());
    Json j = ToJson(info);
    j.erase("replica");
    j.erase("memory_bytes");
    j.erase("visibility");  // the occluder grid (world_cases.h)
    return j;
  }

  // The client's rule for what it keeps (world_cases.h): each body's state
  // after the latest accepted frame.
  void Fold(const v1::Frame& frame) {
    latest_tick_ = frame.tick();
    for (const v1::BodyUpdate& u : frame.bodies()) {
      v1::BodyUpdate& body = bodies_[u.id()];
      body.set_id(u.id());
      if (u.has_pose()) *body.mutable_pose() = u.pose();
      if (u.parts_size() > 0) *body.mutable_parts() = u.parts();
      for (const v1::PartPose& p : u.part_poses()) {
        for (v1::BodyPart& part : *body.mutable_parts()) {
          if (part.id() == p.part()) *part.mutable_local() = p.local();
        }
      }
      if (u.has_category()) body.set_category(u.category());
      if (u.has_movement_shape()) *body.mutable_movement_shape() = u.movement_shape();
    }
    for (std::int64_t id : frame.removals()) bodies_.erase(id);
  }

  // The unary step `part` stands for, computed but not added.
  Json RunPart(const TickPart& part) {
    collecting_ = true;
    if (part.name == "frame") {
      Push(part.body);
    } else if (part.name == "query") {
      Query(part.body);
    } else if (part.name == "rays_packed") {
      RaysPacked(part.body);
    } else if (part.name == "shots") {
      Shots(part.body);
    } else if (part.name == "shots_packed") {
      ShotsPacked(part.body);
    } else if (part.name == "moves") {
      Moves(part.body);
    } else if (part.name == "bodies") {
      Bodies(part.body);
    } else if (part.name == "projectiles") {
      Projectiles(part.body);
    } else if (part.name == "melee") {
      Melee(part.body);
    } else if (part.name == "visibility") {
      Visibility(part.body);
    } else {
      Fail(name_ + ": no Tick part " + part.name);
    }
    collecting_ = false;
    return std::move(collected_);
  }

  void Ok(const std::string& rpc, Json request, Json response) {
    Add({{"rpc", rpc}, {"request", std::move(request)}, {"response", std::move(response)}});
  }
  void Add(Json step) {
    if (collecting_) {
      collected_ = std::move(step);
      return;
    }
    if (history_lost_) step["history_lost"] = true;
    history_lost_ = false;
    steps_.push_back(std::move(step));
  }

  std::string name_, id_;
  std::optional<collide::World> world_;
  std::optional<v1::CreateWorldRequest> creation_;
  std::int64_t triangles_ = 0, degenerate_ = 0;
  std::map<std::int64_t, v1::BodyUpdate> bodies_;
  std::int64_t latest_tick_ = 0;
  bool history_lost_ = false;
  bool collecting_ = false;
  Json collected_;
  Json steps_ = Json::array();
};

// ------------------------------------------------------------------- cases

Json Lifecycle() {
  Script s("world/lifecycle", "conf-lifecycle");
  s.Create({{"statics", ArenaStatics()}, {"history_ticks", 8}, {"policy", {{"max_rewind_ticks", 4}}}});
  s.Get();
  s.List();
  s.Push({{"tick", 1}, {"bodies", {Player(1, V(0, 0, 0))}}});
  s.Get();
  s.Delete();
  s.NotFound("GetWorld", {{"world_id", s.id()}});
  s.NotFound("DeleteWorld", {{"world_id", s.id()}});
  return s.Done();
}

// Frames with gaps, interpolation, a teleport, a removal, an addition, a
// rotation, and times clamped to a 3-frame history.
Json Frames() {
  Script s("world/frames_across_gaps", "conf-frames");
  s.Create(
      {{"statics", Json::array({{{"id", 1}, {"shape", SphereJ(V(0, 30, 1), 1)}}})}, {"history_ticks", 3}});
  const Json ball = Json::array({{{"id", 0}, {"shape", SphereJ(V(0, 0, 1), 0.5)}}});
  const Json rod = Json::array({{{"id", 0}, {"shape", CapsuleJ(V(-1, 0, 1), V(1, 0, 1), 0.2)}}});
  const Json turned = {{"w", 0.7071067811865476}, {"x", 0}, {"y", 0}, {"z", 0.7071067811865476}};
  s.Push({{"tick", 10},
          {"bodies",
           {{{"id", 5}, {"pose", Pose(V(0, 0, 0))}, {"parts", ball}},
            {{"id", 6}, {"pose", Pose(V(0, -10, 0))}, {"parts", rod}}}}});
  s.Push({{"tick", 11},
          {"bodies",
           {{{"id", 5}, {"pose", Pose(V(1, 0, 0))}},
            {{"id", 6}, {"pose", {{"position", V(0, -10, 0)}, {"rotation", turned}}}}}}});
  s.Push({{"tick", 15}, {"bodies", {{{"id", 5}, {"pose", Pose(V(5, 0, 0))}}}}});
  // Rays along +y through body 5's ball at x = 3 (tick 13, between 11 and
  // 15) and across the rod turning between ticks 10 and 11.
  const auto along_y = [](double x, Json at) {
    return Json{{"ray", Ray(V(x, -5, 1), V(0, 1, 0))}, {"filter", {{"at", at}}}};
  };
  const auto across_rod = [](double x, Json at) {
    return Json{{"ray", Ray(V(x, -15, 1), V(0, 1, 0))}, {"filter", {{"at", at}}}};
  };
  s.Query({{"ray_casts",
            {along_y(3, At(13)), along_y(3, At(13, 0.25)), along_y(3.2, At(13, 0.25)),
             across_rod(0.5, At(10, 0.5)), across_rod(0.9, At(10)), across_rod(0.9, At(11))}}});
  s.Push({{"tick", 16}, {"bodies", {{{"id", 5}, {"pose", Pose(V(100, 0, 0))}, {"teleport", true}}}}});
  // Before the teleport's frame the body is at its old pose.
  s.Query({{"ray_casts", {along_y(5, At(15, 0.5)), along_y(100, At(15, 0.5)), along_y(100, At(16))}}});
  s.Push({{"tick", 20},
          {"bodies", {{{"id", 7}, {"pose", Pose(V(100, 0, 0))}, {"parts", ball}}}},
          {"removals", {6}}});
  // The history keeps ticks 15, 16, 20: tick 10 is clamped to 15, 25 to 20;
  // body 6 exists until 20, body 7 from 20.
  s.Query({{"ray_casts",
            {along_y(5, At(10)),
             along_y(100, At(25)),
             across_rod(0, At(18)),
             across_rod(0, At(20)),
             {{"ray", Ray(V(100, -5, 1), V(0, 1, 0))}, {"filter", {{"at", At(18)}, {"ignore_bodies", {5}}}}},
             {{"ray", Ray(V(100, -5, 1), V(0, 1, 0))}, {"filter", {{"ignore_bodies", {5}}}}}}}});
  s.Get();
  s.Delete();
  return s.Done();
}

// The arena with four players at tick 5 (frames 3 and 5; body 2 moved from
// y = -1 to 0 across the gap): 1 the shooter at the origin, 2 in front at
// x = 2, 3 behind it at x = 3.5 (before the wall), 4 inside the pillar.
// `policy`: fields beside max_rewind_ticks 2.
Script Arena(const std::string& name, const std::string& id, Json policy = Json::object()) {
  Script s(name, id);
  policy["max_rewind_ticks"] = 2;
  s.Create({{"statics", ArenaStatics()}, {"policy", policy}});
  Json shooter = Player(1, V(0, 0, 0));
  shooter["movement_shape"] = CapsuleJ(V(0, 0, 0.5), V(0, 0, 1.3), 0.4);
  s.Push({{"tick", 3},
          {"bodies", {shooter, Player(2, V(2, -1, 0)), Player(3, V(3.5, 0, 0)), Player(4, V(-5.5, 0, 0))}}});
  s.Push({{"tick", 5}, {"bodies", {{{"id", 2}, {"pose", Pose(V(2, 0, 0))}}}}});
  return s;
}

Json Claim(std::int64_t body, std::int32_t part) { return {{"body_id", body}, {"part_id", part}}; }
Json ShotJ(std::int64_t shooter, Json origin, Json direction) {
  return {{"shooter_id", shooter}, {"origin", origin}, {"direction", direction}};
}

Json Queries() {
  Script s = Arena("world/query_modes", "conf-queries");
  const Json chest_line = Ray(V(-1, 0, 1.2), V(1, 0, 0));
  const Json down = Ray(V(8, -7, 5), V(0, 0, -1));
  s.Query({{"ray_casts",
            {{{"ray", chest_line}, {"filter", {{"ignore_bodies", {1}}}}},
             {{"ray", chest_line}, {"mode", "RAY_MODE_CLOSEST"}},
             {{"ray", down}, {"mode", "RAY_MODE_ANY"}},
             {{"ray", chest_line}, {"mode", "RAY_MODE_ALL"}, {"max_hits", 2}},
             {{"ray", chest_line}, {"mode", "RAY_MODE_ALL"}},
             {{"ray", chest_line}, {"filter", {{"category_mask", 2}}}},
             {{"ray", {{"origin", V(-1, 0, 1.2)}, {"direction", V(1, 0, 0)}, {"max_distance", 1.5}}}},
             {{"ray", Ray(V(0, 0, 5), V(0, 0, 1))}},
             {{"ray", Ray(V(-0.5, -5, 1.2), V(0, 1, 0))}, {"filter", {{"at", At(4, 0.5)}}}},
             {{"ray", chest_line}, {"filter", {{"at", At(1)}, {"ignore_bodies", {1}}}}}}},
           {"shape_casts",
            {{{"shape", SphereJ(V(-1, 0, 1.2), 0.3)},
              {"translation", V(10, 0, 0)},
              {"filter", {{"ignore_bodies", {1}}}}},
             {{"shape", SphereJ(V(0, -8, 1), 0.3)}, {"translation", V(0, 0, -2)}},
             {{"shape", SphereJ(V(4.1, 0, 1), 0.3)}, {"translation", V(1, 0, 0)}},
             {{"shape", CapsuleJ(V(0, -8, 5), V(0, -7, 5), 0.3)}, {"translation", V(0, 0, 1)}}}},
           {"overlaps",
            {{{"shape", SphereJ(V(2, 0, 1.2), 0.5)}},
             {{"shape", SphereJ(V(2, 0, 1.2), 0.5)}, {"level", "QUERY_LEVEL_DISTANCE"}},
             {{"shape", SphereJ(V(2, 0, 0.5), 0.6)}, {"level", "QUERY_LEVEL_CONTACT"}},
             {{"shape", SphereJ(V(2, 0, 0.5), 0.6)}, {"max_results", 1}},
             {{"shape", AabbJ(V(-6.5, -1, 0.5), V(-4.5, 1, 1))}, {"filter", {{"category_mask", 4}}}}}}});
  s.RaysPacked({{"rays", {-1, 0,  1.2, 1, 0, 0,  "Infinity", 0, 0,  5,   0, 0, 1, 10,
                          8,  -7, 5,   0, 0, -1, 100,        0, -3, 1.7, 1, 0, 0, 20}},
                {"filter", {{"ignore_bodies", {1}}, {"at", At(4)}}}});
  s.Delete();
  return s.Done();
}

// Every shot code, readable and packed.
constexpr std::int64_t kLatest = std::numeric_limits<std::int64_t>::min();  // a packed shot's "latest".
Json Shots() {
  Script s = Arena("world/shot_verdicts", "conf-shots");
  const Json eye = V(0, 0, 1.7);
  Json confirmed = ShotJ(1, eye, V(1, 0, 0));
  confirmed["claimed"] = Claim(2, 0);
  Json other_part = ShotJ(1, V(0, 0, 1.2), V(1, 0, 0));
  other_part["claimed"] = Claim(2, 0);
  Json other_body = ShotJ(1, eye, V(1, 0, 0));
  other_body["claimed"] = Claim(3, 0);
  Json blocked = ShotJ(1, V(0, 0, 1.2), V(-1, 0, 0));
  blocked["claimed"] = Claim(4, 1);
  Json missed = ShotJ(1, eye, V(0, 0, 1));
  missed["claimed"] = Claim(2, 0);
  Json too_old = confirmed;
  too_old["at"] = At(2);
  Json future = confirmed;
  future["at"] = At(6);
  Json implausible = ShotJ(1, V(0, 3, 1.7), V(1, 0, 0));
  implausible["claimed"] = Claim(2, 0);
  Json unknown_shooter = ShotJ(99, eye, V(1, 0, 0));
  Json unknown_target = confirmed;
  unknown_target["claimed"] = Claim(2, 9);
  Json unclaimed = ShotJ(1, eye, V(1, 0, 0));
  // Rewound to tick 4 (halfway across the gap) body 2 stood at y = -0.5.
  Json rewound = ShotJ(1, eye, V(2, -0.5, 0));
  rewound["claimed"] = Claim(2, 0);
  rewound["at"] = At(4);
  Json not_rewound = rewound;
  not_rewound.erase("at");
  Json tolerated = ShotJ(1, V(0, 0, 1.9), V(1, 0, 0));
  tolerated["claimed"] = Claim(2, 0);
  tolerated["tolerance"] = 0.1;
  Json short_range = confirmed;
  short_range["max_range"] = 1.5;
  // The legs box [1.8, 2.2] x [-0.2, 0.2] x [0, 0.9] claimed with tolerance
  // 0.3, along its bottom edge under the floor: passing 0.25 from the edge is
  // a hit on the rounded box, 0.35 from it a miss (tolerance is a distance,
  // not grown half extents).
  Json box_near = ShotJ(1, V(0, 0.2 + 0.25 / std::sqrt(2.0), -0.25 / std::sqrt(2.0)), V(1, 0, 0));
  box_near["claimed"] = Claim(2, 2);
  box_near["tolerance"] = 0.3;
  Json box_far = box_near;
  box_far["origin"] = V(0, 0.2 + 0.35 / std::sqrt(2.0), -0.35 / std::sqrt(2.0));
  // A claim on one's own body is INVALID; so is a bad direction, per shot.
  Json self = confirmed;
  self["claimed"] = Claim(1, 0);
  Json zero = ShotJ(1, eye, V(0, 0, 0));
  s.Shots({confirmed, other_part, other_body, blocked, missed, too_old, future, implausible, unknown_shooter,
           unknown_target, unclaimed, rewound, not_rewound, tolerated, short_range, box_near, box_far, self,
           zero});
  // The same shots packed: 10 doubles each, INT64_MIN ticks for "latest".
  s.ShotsPacked({{"doubles", {0, 0, 1.7, 1,  0,    0, "Infinity", 0,   0,   0,    // confirmed
                              0, 0, 1.2, 1,  0,    0, "Infinity", 0,   0,   0,    // other part
                              0, 0, 1.2, -1, 0,    0, "Infinity", 0,   0,   0,    // blocked
                              0, 0, 1.7, 2,  -0.5, 0, "Infinity", 0,   0,   0,    // rewound (tick 4)
                              0, 0, 1.7, 2,  -0.5, 0, "Infinity", 0.5, 0,   0,    // tick 2.5: too old
                              0, 0, 1.9, 1,  0,    0, 30,         0,   0.1, 0}},  // tolerated
                 {"shooter_ids", {1, 1, 1, 1, 1, 1}},
                 {"ticks", {kLatest, kLatest, kLatest, 4, 2, kLatest}},
                 {"claimed_body_ids", {2, 2, 4, 2, 2, 2}},
                 {"claimed_part_ids", {0, 0, 1, 0, 0, 0}}});
  s.Delete();
  return s.Done();
}

// Shots as a game server judges them: the origin against the shooter's eye
// at the command's time, the view time, old shots clamped, the category mask
// and ignore list, and the teleport guard; readable and packed.
Json ShotPolicy() {
  Script s("world/shot_policy", "conf-shot-policy");
  s.Create({{"statics", ArenaStatics()},
            {"policy", {{"max_rewind_ticks", 2}, {"clamp_old_shots", true}, {"max_tick_distance", 3}}}});
  Json shooter = Player(1, V(-2, 0, 0));
  shooter["eye"] = V(0, 0, 1.75);
  Json mate = Player(3, V(1, 0, 0));
  mate["category"] = 16;
  s.Push({{"tick", 1}, {"bodies", {shooter, Player(2, V(3, 0, 0)), mate}}});
  s.Push({{"tick", 2}, {"bodies", {{{"id", 1}, {"pose", Pose(V(-1, 0, 0))}}}}});
  // Body 2 jumps 8 units in one tick: the guard takes it as a teleport.
  s.Push({{"tick", 3}, {"bodies", {{{"id", 2}, {"pose", Pose(V(3, 8, 0))}}}}});
  s.Push({{"tick", 4}});
  const Json eye = V(-1, 0, 1.75);
  Json through_mate = ShotJ(1, eye, V(1, 0, 0));
  through_mate["claimed"] = Claim(2, 0);
  through_mate["at"] = At(2);
  Json ignoring = through_mate;
  ignoring["ignore_bodies"] = {3};
  Json masked = through_mate;
  masked["category_mask"] = kPlayers;
  Json off_eye = through_mate;
  off_eye["origin"] = V(-1, 2.5, 1.75);  // 2.5 from the eye: beyond 2 (the shooter stood still since tick 2).
  Json backtrack = masked;
  backtrack["expected_at"] = At(3, 0.5);
  backtrack["max_skew_ticks"] = 1;
  Json clamped = masked;
  clamped["at"] = At(0);  // 4 ticks back: clamped to tick 2.
  Json commanded = masked;
  commanded["origin"] = V(-2, 0, 1.75);
  commanded["command_at"] = At(1);
  s.Shots({through_mate, ignoring, masked, off_eye, backtrack, clamped, commanded});
  s.ShotsPacked({{"doubles", {-1, 0, 1.75, 1, 0, 0, "Infinity", 0, 0, 1,    // expected at tick 3
                              -1, 0, 1.75, 1, 0, 0, "Infinity", 0, 0, 0,    // through the mate
                              -2, 0, 1.75, 1, 0, 0, "Infinity", 0, 0, 0}},  // command at tick 1
                 {"shooter_ids", {1, 1, 1}},
                 {"ticks", {2, 2, 2}},
                 {"claimed_body_ids", {2, 2, 2}},
                 {"claimed_part_ids", {0, 0, 0}},
                 {"command_ticks", {kLatest, kLatest, 1}},
                 {"expected_ticks", {3, kLatest, kLatest}},
                 {"category_masks", {kPlayers, 0, kPlayers}},
                 {"ignore_counts", {0, 1, 0}},
                 {"ignore_body_ids", {3}}});
  s.Delete();
  return s.Done();
}

// A world whose ticks are negative: a packed shot rewinds through them (only
// INT64_MIN means the latest frame).
Json NegativeTicks() {
  Script s("world/negative_ticks", "conf-negative");
  s.Create({{"statics", ArenaStatics()}});
  s.Push({{"tick", -10}, {"bodies", {Player(1, V(0, 0, 0)), Player(2, V(2, -1, 0))}}});
  s.Push({{"tick", -8}, {"bodies", {{{"id", 2}, {"pose", Pose(V(2, 1, 0))}}}}});
  // At tick -9 body 2 stood at y = 0, in front of the shooter's eye; at the
  // latest frame (-8) at y = 1.
  s.ShotsPacked({{"doubles", {0, 0, 1.7, 1, 0, 0, "Infinity", 0, 0, 0,    // tick -9
                              0, 0, 1.7, 1, 0, 0, "Infinity", 0, 0, 0}},  // latest
                 {"shooter_ids", {1, 1}},
                 {"ticks", {-9, kLatest}},
                 {"claimed_body_ids", {2, 2}},
                 {"claimed_part_ids", {0, 0}}});
  s.Delete();
  return s.Done();
}

// GetBodies (a past fractional time, missing ids, every body, a bad time)
// and explained shots (confirmed, a missed claim, rewound; readable and
// packed) and moves (blocked, sliding along the wall).
Json Explain() {
  Script s = Arena("world/explain", "conf-explain");
  s.Bodies({{"at", At(4, 0.25)}, {"body_ids", {3, 99, 2}}});
  s.Bodies({});
  s.Bodies({{"at", At(4, 1.5)}});
  const Json eye = V(0, 0, 1.7);
  Json confirmed = ShotJ(1, eye, V(1, 0, 0));
  confirmed["claimed"] = Claim(2, 0);
  Json missed = ShotJ(1, eye, V(0, 0, 1));
  missed["claimed"] = Claim(2, 0);
  missed["tolerance"] = 0.05;
  Json rewound = ShotJ(1, eye, V(2, -0.5, 0));
  rewound["claimed"] = Claim(2, 0);
  rewound["at"] = At(4);
  Json implausible = ShotJ(1, V(0, 3, 1.7), V(1, 0, 0));
  implausible["claimed"] = Claim(2, 0);
  s.Shots({confirmed, missed, rewound, implausible}, false, true);
  s.ShotsPacked({{"doubles", {0, 0, 1.7, 2, -0.5, 0, "Infinity", 0.5, 0, 0}},
                 {"shooter_ids", {1}},
                 {"ticks", {4}},
                 {"claimed_body_ids", {2}},
                 {"claimed_part_ids", {0}},
                 {"explain", true}});
  const auto move = [](std::int64_t body, Json from, Json to, double elapsed) {
    return Json{{"body_id", body}, {"from", from}, {"to", to}, {"elapsed", elapsed}};
  };
  Json slide = move(3, V(3.5, 0, 0.05), V(4.4, 0.9, 0.05), 0.5);
  slide["slide"] = true;
  s.Moves(
      {slide, move(3, V(3.5, 0, 0.05), V(4.4, 0, 0.05), 0.5), move(1, V(0, 0, 0.05), V(0.3, 0, 0.05), 0.1)},
      false, true);
  s.Delete();
  return s.Done();
}

// Explained moves under the movement model (Quake preset): up a step, a step
// too high, too fast on the ground, and a jump's first moves.
Json ExplainModel() {
  Script s("world/explain_model", "conf-explain-model");
  const auto box = [](std::int64_t id, Json lo, Json hi) {
    return Json{{"id", id}, {"shape", AabbJ(lo, hi)}};
  };
  s.Create({{"statics",
             {box(1, V(-1000, -1000, -16), V(1000, 2000, 0)), box(2, V(20, -50, 0), V(100, 50, 16)),
              box(3, V(20, 150, 0), V(100, 250, 24))}},
            {"policy", {{"movement", {{"preset", "MOVEMENT_PRESET_QUAKE"}}}}}});
  s.Push({{"tick", 1}, {"bodies", {Player(1, V(0, 0, 24)), Player(2, V(0, 600, 24))}}});
  const auto move = [](std::int64_t body, Json from, Json to, double elapsed) {
    return Json{{"body_id", body}, {"from", from}, {"to", to}, {"elapsed", elapsed}};
  };
  const auto z = [](double t) { return 24 + 270 * t - 400 * t * t; };
  s.Moves({move(1, V(0, 0, 24), V(24, 0, 40), 0.1), move(1, V(0, 200, 24), V(24, 200, 48), 0.1),
           move(1, V(0, 600, 24), V(50, 600, 24), 0.1), move(2, V(0, 600, z(0)), V(5, 600, z(0.025)), 0.025),
           move(2, V(5, 600, z(0.025)), V(10, 600, z(0.05)), 0.025)},
          false, true);
  s.Delete();
  return s.Done();
}

// Every move code.
Json Moves() {
  Script s = Arena("world/move_verdicts", "conf-moves");
  const auto move = [](std::int64_t body, Json to, double elapsed) {
    return Json{{"body_id", body}, {"to", to}, {"elapsed", elapsed}};
  };
  Json slide = move(3, V(4.4, 0.9, 0), 0.5);
  slide["slide"] = true;
  Json from = move(3, V(3.5, -1, 0), 0.5);
  from["from"] = V(3.5, -2, 0);
  Json own_limit = move(1, V(0.5, 0, 0), 0.1);
  own_limit["max_speed"] = 4;
  Json walls_only = move(3, V(4.4, 0, 0), 0.5);
  walls_only["category_mask"] = 4;
  // Body 2 moved from (2, -1) at tick 3 to (2, 0) at tick 5: a move without
  // `from` starts at tick 3's position, so (2, 0) in 0.05 s is 20 units/s.
  Json into_latest = move(2, V(2, 0, 0), 0.05);
  into_latest["max_speed"] = 10;
  // Down into the floor, within the default skin (0.01) of it: OK; 0.02
  // deep: BLOCKED, t at the first touch, allowed 0.01 above the floor.
  Json shallow = move(3, V(3.5, -1, -0.005), 0.5);
  shallow["from"] = V(3.5, -1, 0.1);
  Json deep = move(3, V(3.5, -1, -0.02), 0.5);
  deep["from"] = V(3.5, -1, 0.1);
  s.Moves({move(1, V(0.5, 0, 0), 0.1), move(1, V(5, 0, 0), 0.1), move(3, V(4.4, 0, 0), 0.5), slide,
           move(4, V(-5.4, 0, 0), 0.1), move(99, V(1, 0, 0), 1), from, own_limit, walls_only, into_latest,
           shallow, deep});
  s.Delete();
  return s.Done();
}

// Projectile verdicts (docs/projectiles.md) in the arena, one tick = 0.5 s
// (ticks 3 to 5: one second judged from tick 3): a straight shot past
// body 2 (moving from y = -1 to 0) into body 3's chest, claimed on each; a
// lob with drag bouncing on the floor; one still in flight; a rewind too
// old; a launch 3 from the shooter's eye (its body origin: no eye set) at
// its command's tick, beyond max_origin_offset 2; bad fields, per item and
// all or nothing.
Json Projectiles() {
  Script s = Arena("world/projectile_verdicts", "conf-projectiles");
  const auto shot = [](Json velocity, Json at, double time_limit) {
    return Json{{"shooter_id", 1},        {"at", at},
                {"origin", V(0, 0, 1.2)}, {"velocity", velocity},
                {"tick_seconds", 0.5},    {"time_limit", time_limit}};
  };
  Json confirmed = shot(V(4, 0, 0), At(3), 2);
  confirmed["claimed"] = Claim(3, 1);
  Json other_body = confirmed;
  other_body["claimed"] = Claim(2, 1);
  Json lob = shot(V(2, -3, 3), At(3), 0.9);
  lob["gravity"] = V(0, 0, -9.81);
  lob["drag"] = 0.1;
  lob["radius"] = 0.05;
  lob["restitution"] = 0.5;
  lob["max_bounces"] = 2;
  Json up = shot(V(0, 0, 1), At(4), 2);
  Json old = shot(V(1, 0, 0), At(1), 2);
  Json far = shot(V(4, 0, 0), At(3), 2);
  far["origin"] = V(0, 3, 0);
  far["command_at"] = At(4);
  Json bad = shot(V(1, 0, 0), At(3), 2);
  bad["tick_seconds"] = 0;
  bad["restitution"] = 2;
  // At most 4 a call: a projectile counts 16 items (server/world_items.h)
  // against --max_items_per_request=64.
  s.Projectiles({confirmed, other_body, lob, up});
  s.Projectiles({old, far, bad});
  s.Projectiles({confirmed, bad}, true);
  s.Delete();
  return s.Done();
}

// Melee verdicts in the arena at the latest frame (tick 6: body 2 at
// (2, 0); eyes set at 1.2, chest height): an arc reaching body 2's chest,
// claimed on it and on the head above the arc's plane; a swing of body 3 at
// nothing; an arc at body 4 inside the pillar (blocked); a capsule swept
// across body 2's chest; a bad arc, per item and all or nothing.
Json Melee() {
  Script s = Arena("world/melee_verdicts", "conf-melee");
  Json eyes = Json::array();
  for (std::int64_t id : {1, 3, 4}) eyes.push_back({{"id", id}, {"eye", V(0, 0, 1.2)}});
  s.Push({{"tick", 6}, {"bodies", eyes}});
  const auto arc = [](std::int64_t attacker, Json direction, double radius, double angle) {
    return Json{
        {"attacker_id", attacker},
        {"arc", {{"direction", direction}, {"up", V(0, 0, 1)}, {"radius", radius}, {"angle", angle}}}};
  };
  Json chest = arc(1, V(1, 0, 0), 2.2, 1.0);
  chest["claimed"] = Claim(2, 1);
  Json head = chest;
  head["claimed"] = Claim(2, 0);
  Json pillar = arc(1, V(-1, 0, 0), 6, 0.5);
  pillar["claimed"] = Claim(4, 2);
  Json swept = {{"attacker_id", 1},
                {"sweep",
                 {{"from", {{"a", V(0, 0, 1.1)}, {"b", V(2.2, -1, 1.1)}, {"radius", 0.05}}},
                  {"to", {{"a", V(0, 0, 1.1)}, {"b", V(2.2, 1, 1.1)}, {"radius", 0.05}}}}},
                {"claimed", Claim(2, 1)},
                {"tolerance", 0.01}};
  Json bad = arc(1, V(1, 0, 0), 2, 0);
  s.Melee({chest, head, arc(3, V(1, 0, 0), 1.5, 1.0), pillar, swept, bad});
  s.Melee({chest, bad}, true);
  s.Delete();
  return s.Done();
}

// Visibility sets on the arena (no occluders, so every body sees every
// other: the culling has its own tests), by observer, target category and
// look-ahead; an unknown observer; a bad latency.
Json Visibility() {
  Script s = Arena("world/visibility", "conf-visibility");
  s.Visibility(Json::object());
  s.Visibility({{"observers", {2, 99}},
                {"target_category_mask", kPlayers},
                {"tick_seconds", 0.05},
                {"latency", 0.1},
                {"margin", 1},
                {"at", At(3)}});
  s.Visibility({{"observers", {1}}, {"target_category_mask", 1}});  // no body is in category 1
  s.Visibility({{"latency", -1}});
  s.Delete();
  return s.Done();
}

// The movement model (Quake preset, docs/moves.md): each new code on a floor
// with a 16-unit step, a 24-unit step and a low ceiling, one body a rule;
// a jump arc and a climb in the air judged move after move.
Json MovementModel() {
  Script s("world/movement_model", "conf-movement");
  const auto box = [](std::int64_t id, Json lo, Json hi) {
    return Json{{"id", id}, {"shape", AabbJ(lo, hi)}};
  };
  s.Create({{"statics",
             {box(1, V(-1000, -1000, -16), V(1000, 2000, 0)), box(2, V(20, -50, 0), V(100, 50, 16)),
              box(3, V(20, 150, 0), V(100, 250, 24)), box(4, V(20, 350, 45), V(100, 450, 60))}},
            {"policy", {{"movement", {{"preset", "MOVEMENT_PRESET_QUAKE"}}}}}});
  // Four bodies (the conformance server's limit), each judged in order:
  // grounded moves keep a body grounded; after a rejected one, a move that does
  // not start where the verdict put the body starts afresh.
  s.Push({{"tick", 1},
          {"bodies",
           {Player(1, V(0, 0, 24)), Player(2, V(0, 400, 24)), Player(3, V(0, 1000, 24)),
            Player(4, V(0, 1200, 24))}}});
  const auto move = [](std::int64_t body, Json from, Json to, double elapsed, int stance = 0) {
    return Json{{"body_id", body}, {"from", from}, {"to", to}, {"elapsed", elapsed}, {"stance", stance}};
  };
  Json moves = {move(1, V(0, 0, 24), V(24, 0, 40), 0.1),         // up the step: OK
                move(1, V(0, 200, 24), V(24, 200, 48), 0.1),     // STEP_TOO_HIGH
                move(1, V(0, 600, 24), V(50, 600, 24), 0.1),     // TOO_FAST_HORIZONTAL
                move(2, V(0, 420, 24), V(8, 420, 24), 0.1, 0),   // standing under the ceiling: BLOCKED
                move(2, V(0, 400, 24), V(8, 400, 24), 0.1, 1),   // crouched: OK
                move(2, V(0, 800, 24), V(0, 800, 124), 0.1),     // TOO_FAST_VERTICAL
                move(2, V(0, 600, 24), V(5, 600, 24), 0.1, 2)};  // INVALID stance
  // Rising at 100 units/s in the air: FLYING once no arc holds it; not put
  // back by the server, the body then starts afresh (caught again later).
  for (int i = 0; i < 12; ++i) {
    const double t0 = i * 0.025, t1 = t0 + 0.025;
    moves.push_back(move(3, V(0, 1000, 24 + 100 * t0), V(0, 1000, 24 + 100 * t1), 0.025));
  }
  for (int i = 0; i < 8; ++i) {  // a jump: OK
    const auto z = [](double t) { return 24 + 270 * t - 400 * t * t; };
    const double t0 = i * 0.025, t1 = t0 + 0.025;
    moves.push_back(move(4, V(5 * i, 1200, z(t0)), V(5 * (i + 1), 1200, z(t1)), 0.025));
  }
  s.Moves(moves);
  s.Delete();
  return s.Done();
}

// The movement model's finer rules (docs/moves.md): stairs climbed within
// one tick, a crouch while running (the run speed for that move, then a
// decaying carry), the ground speed of a player turning as it runs (320 x
// sqrt(10 / 6) = 413), and a 60-degree ramp too steep to walk up.
Json MovementRules() {
  Script s("world/movement_rules", "conf-movement-rules");
  const auto box = [](std::int64_t id, Json lo, Json hi) {
    return Json{{"id", id}, {"shape", AabbJ(lo, hi)}};
  };
  const double k = std::tan(60.0 * std::numbers::pi / 180.0);  // the ramp's rise per unit along x
  s.Create({{"statics",
             {box(1, V(-1000, -1000, -16), V(1000, 2000, 0)),
              box(2, V(20, -50, 0), V(100, 50, 10)),
              box(3, V(28, -50, 0), V(100, 50, 20)),
              box(4, V(36, -50, 0), V(100, 50, 30)),
              {{"id", 5},
               {"mesh",
                {{"vertices", {0, 300, 0, 100, 300, 100 * k, 100, 400, 100 * k, 0, 400, 0}},
                 {"indices", {0, 1, 2, 0, 2, 3}}}}}}},
            {"policy", {{"movement", {{"preset", "MOVEMENT_PRESET_QUAKE"}}}}}});
  const double on_ramp = 25 * k + 24;  // box origin at x 10, its front bottom edge (x 25) on the ramp
  s.Push({{"tick", 1},
          {"bodies",
           {Player(1, V(0, 0, 24)), Player(2, V(0, 600, 24)), Player(3, V(10, 350, on_ramp)),
            Player(4, V(0, 800, 24))}}});
  const auto move = [](std::int64_t body, Json from, Json to, double elapsed, int stance = 0) {
    return Json{{"body_id", body}, {"from", from}, {"to", to}, {"elapsed", elapsed}, {"stance", stance}};
  };
  s.Moves({move(1, V(0, 0, 24), V(40, 0, 54), 0.125),         // three 10-unit steps: OK
           move(2, V(0, 600, 24), V(40, 600, 24), 0.125),     // running at 320: OK
           move(2, V(40, 600, 24), V(70, 600, 24), 0.1, 1),   // crouching at 300: OK
           move(2, V(70, 600, 24), V(100, 600, 24), 0.1, 1),  // still 300: TOO_FAST_HORIZONTAL
           move(2, V(70, 600, 24), V(90, 600, 24), 0.1, 1),   // 200, decaying: OK
           move(3, V(10, 350, on_ramp), V(15, 350, on_ramp + 5 * k), 0.016),  // up the ramp: TOO_STEEP
           move(4, V(0, 800, 24), V(40, 800, 24), 0.1),                       // turning at 400: OK
           move(4, V(40, 800, 24), V(90, 800, 24), 0.1)});                    // 500: TOO_FAST_HORIZONTAL
  s.Delete();
  return s.Done();
}

// The budget across moves: ticks of 1/64 s, 330 units/s.
Json MoveBudget() {
  Script s("world/move_budget", "conf-budget");
  s.Create({{"statics", Json::array()},
            {"policy",
             {{"default_max_speed", 10000},
              {"move_budget", {{"tick_seconds", 0.015625}, {"max_speed", 330}, {"time_slack", 0.01}}}}}});
  s.Push({{"tick", 1}, {"bodies", {Player(1, V(0, 0, 0)), Player(2, V(0, 10, 0)), Player(3, V(0, 20, 0))}}});
  const auto move = [](std::int64_t body, double y, double x, double elapsed) {
    return Json{{"body_id", body}, {"from", V(0, y, 0)}, {"to", V(x, y, 0)}, {"elapsed", elapsed}};
  };
  s.Moves({move(1, 0, 5, 1.0),          // a second claimed in one tick: TIME_BUDGET
           move(2, 10, 20, 0.015625),   // 1280 units/s: DISTANCE_BUDGET
           move(3, 20, 5, 0.015625)});  // 320 units/s: OK
  s.Push({{"tick", 2}});
  s.Moves({move(3, 20, 5, 0.015625), move(3, 20, 10, 0.015625)});  // two moves in one tick: the second over
  s.Delete();
  return s.Done();
}

// Every world error class, with its code, field paths and reason.
Json Errors() {
  Script s("world/errors", "conf-errors");
  s.Create({{"statics", Json::array({{{"id", 1}, {"shape", SphereJ(V(0, 0, 0), 1)}}})}});
  s.Error("CreateWorld", {{"world_id", s.id()}}, "ALREADY_EXISTS", nullptr);
  s.Error("CreateWorld", {{"world_id", "conf bad id!"}}, "INVALID_ARGUMENT", {"world_id"});
  s.Error("CreateWorld", {{"world_id", "conf-errors-2"}, {"history_ticks", kWorldMaxHistoryTicks + 1}},
          "RESOURCE_EXHAUSTED", nullptr);
  // Decoding errors, their paths computed by convert/ and the core.
  Script bad("world/errors", "conf-errors-2");
  bad.Create({{"statics", Json::array({{{"id", 1}, {"map_file", {{"name", "q3dm17.pk3"}}}}})}});
  bad.Create({{"statics",
               Json::array({{{"id", 1},
                             {"mesh", {{"vertices", {0, 0, 0, 1, 0, 0, 0, 1, 0}}, {"indices", {0, 1, 3}}}}},
                            {{"id", 2}, {"shape", SphereJ(V(0, 0, 0), -1)}}})}});
  bad.Create({{"policy", {{"max_rewind_ticks", -1}, {"skin_width", -0.5}}}});
  Json steps = bad.Done()["steps"];
  for (Json& step : steps) {
    s.Error(step["rpc"].get<std::string>(), step["request"], step["error"]["code"].get<std::string>(),
            step["error"]["field_violations"]);
  }

  s.Push({{"tick", 5}, {"bodies", {Player(1, V(0, 0, 0))}}});
  s.Push({{"tick", 5}, {"bodies", {{{"id", 1}, {"pose", Pose(V(1, 0, 0))}}}}});
  s.Push({{"tick", 6},
          {"bodies",
           {{{"id", 1},
             {"pose", {{"position", V(1, 0, 0)}, {"rotation", {{"w", 0}, {"x", 0}, {"y", 0}, {"z", 0}}}}}},
            {{"id", 2}, {"pose", Pose(V(0, 0, 0))}}}}});
  Json crowd = Json::array();
  for (int i = 0; i <= kWorldMaxBodies; ++i) crowd.push_back(Player(10 + i, V(i, 5, 0)));
  s.Error("PushFrame", {{"frame", {{"tick", 7}, {"bodies", crowd}}}}, "RESOURCE_EXHAUSTED", nullptr);
  Json many_parts = Json::array();
  for (int i = 0; i <= kWorldMaxParts; ++i)
    many_parts.push_back({{"id", i}, {"shape", SphereJ(V(0, 0, i), 0.1)}});
  s.Error("PushFrame",
          {{"frame",
            {{"tick", 7}, {"bodies", {{{"id", 3}, {"pose", Pose(V(0, 0, 0))}, {"parts", many_parts}}}}}}},
          "RESOURCE_EXHAUSTED", nullptr);
  Json zero = ShotJ(1, V(0, 0, 1.7), V(0, 0, 0));
  Json nan_origin = ShotJ(1, V(0, 0, 1.7), V(1, 0, 0));
  nan_origin["origin"]["y"] = "NaN";
  nan_origin["at"] = At(5, 1.5);
  s.Shots({ShotJ(1, V(0, 0, 1.7), V(1, 0, 0)), zero, nan_origin});
  s.Shots({ShotJ(1, V(0, 0, 1.7), V(1, 0, 0)), zero, nan_origin}, true);
  Json too_many = Json::array();
  for (int i = 0; i <= kMaxItemsPerRequest; ++i) too_many.push_back(ShotJ(1, V(0, 0, 1.7), V(1, 0, 0)));
  s.Error("ValidateShots", {{"shots", too_many}}, "RESOURCE_EXHAUSTED", nullptr);
  const Json bad_moves = {{{"body_id", 1}, {"to", V(1, 0, 0)}, {"elapsed", 0}},
                          {{"body_id", 1}, {"to", V(1, 0, 0)}, {"elapsed", 1}, {"max_speed", -2}}};
  s.Moves(bad_moves);
  s.Moves(bad_moves, true);
  s.NotFound("QueryWorld",
             {{"world_id", "conf-never-created"}, {"ray_casts", {{{"ray", Ray(V(0, 0, 0), V(1, 0, 0))}}}}});
  s.Delete();
  s.NotFound("PushFrame", {{"frame", {{"tick", 9}}}});
  return s.Done();
}

// A world lost with its server: the client re-creates it from what it kept.
Json Recreate() {
  Script s("world/recreate_after_restart", "conf-recreate");
  s.Create({{"statics", ArenaStatics()}, {"history_ticks", 8}});
  s.Push({{"tick", 1}, {"bodies", {Player(1, V(0, 0, 0)), Player(2, V(2, -1, 0))}}});
  s.Push({{"tick", 2}, {"bodies", {{{"id", 2}, {"pose", Pose(V(2, 0, 0))}}}}});
  // The last frame only animates body 2's head and recategorizes it: the
  // client must keep body 1 from frame 1 and body 2's pose from frame 2.
  s.Push(
      {{"tick", 3},
       {"bodies",
        {{{"id", 2}, {"part_poses", {{{"part", 0}, {"local", Pose(V(0, 0.3, 1.6))}}}}, {"category", 16}}}}});
  Json rewound = ShotJ(1, V(0, 0, 1.7), V(2, -1, 0));
  rewound["claimed"] = Claim(2, 0);
  rewound["at"] = At(1);
  Json now = ShotJ(1, V(0, 0, 1.6), V(1, 0.15, 0));
  now["claimed"] = Claim(2, 0);
  s.Shots({rewound, now});
  s.Restart();
  // The rewind is clamped to the re-created history (tick 3 alone).
  s.Shots({rewound, now});
  s.Get();
  s.Push({{"tick", 4}, {"bodies", {{{"id", 1}, {"pose", Pose(V(0.5, 0, 0))}}}}});
  s.Query({{"ray_casts", {{{"ray", Ray(V(-1, 0, 1.2), V(1, 0, 0))}, {"filter", {{"category_mask", 16}}}}}}});
  s.Get();
  s.Delete();
  return s.Done();
}

// One packed shot of shooter 1 at tick `tick` (< 0: the latest) claiming
// body 2's head.
Json PackedShot(Json doubles, std::int64_t tick) {
  return {{"doubles", std::move(doubles)},
          {"shooter_ids", {1}},
          {"ticks", {tick}},
          {"claimed_body_ids", {2}},
          {"claimed_part_ids", {0}}};
}

// The tick loop on one stream: a frame with batches of every kind in one
// message, packed shots, per-message errors, a stale frame, a ping, and a
// world lost with its server re-created on the stream's first message after
// the restart. A message holds readable or packed shots, not both, and shot
// errors are in packed shots: what every client's stream can send (the C++
// TickMessage sends its shots packed).
Json TickStream() {
  Script s = Arena("world/tick_stream", "conf-tick");
  using P = Script::TickPart;
  Json claimed = ShotJ(1, V(0, 0, 1.7), V(1, 0, 0));
  claimed["claimed"] = Claim(2, 0);
  Json rewound = ShotJ(1, V(0, 0, 1.7), V(2, -0.5, 0));
  rewound["claimed"] = Claim(2, 0);
  rewound["at"] = At(4);
  const Json chest_line = Ray(V(-1, 0, 1.2), V(1, 0, 0));
  const Json moves = Json::array({{{"body_id", 3}, {"to", V(4.4, 0.9, 0)}, {"elapsed", 0.5}, {"slide", true}},
                                  {{"body_id", 1}, {"to", V(0.3, 0, 0)}, {"elapsed", 0.1}}});
  s.Tick({{P{"frame", {{"tick", 6}, {"bodies", Json::array({{{"id", 2}, {"pose", Pose(V(2, 0.05, 0))}}})}}},
           P{"query",
             {{"ray_casts", Json::array({{{"ray", chest_line}, {"mode", "RAY_MODE_ALL"}}})},
              {"overlaps",
               Json::array({{{"shape", SphereJ(V(2, 0, 1.2), 0.5)}, {"level", "QUERY_LEVEL_CONTACT"}}})}}},
           P{"rays_packed", {{"rays", {-1, 0, 1.2, 1, 0, 0, 30}}, {"filter", {{"ignore_bodies", {1}}}}}},
           P{"shots", Json::array({claimed, rewound})}, P{"moves", moves}},
          {P{"shots_packed", PackedShot({0, 0, 1.7, 1, 0, 0, "Infinity", 0, 0, 0}, 4)}},
          {P{"frame", {{"tick", 7}}},
           P{"shots_packed", PackedShot({0, 0, 1.7, 0, 0, 0, "Infinity", 0, 0, 0}, -1)}, P{"moves", moves}},
          {P{"frame", {{"tick", 7}}}, P{"shots", Json::array({claimed})}},
          {},
          {P{"moves", Json::array({{{"body_id", 1}, {"to", V(0.3, 0, 0)}, {"elapsed", 0}}})}}});
  s.Restart();
  s.Tick({{P{"frame", {{"tick", 8}, {"bodies", Json::array({{{"id", 1}, {"pose", Pose(V(0.2, 0, 0))}}})}}},
           P{"shots", Json::array({claimed, rewound})}},
          {P{"query", {{"ray_casts", Json::array({{{"ray", chest_line}, {"filter", {{"at", At(3)}}}}})}}}}});
  s.Get();
  s.Delete();
  return s.Done();
}

// The Tick part `bodies`: after the message's frame and batches, and its
// errors named under "bodies".
Json TickBodies() {
  Script s = Arena("world/tick_bodies", "conf-tick-bodies");
  using P = Script::TickPart;
  s.Tick({{P{"frame", {{"tick", 6}, {"bodies", Json::array({{{"id", 2}, {"pose", Pose(V(2, 0.5, 0))}}})}}},
           P{"moves", Json::array({{{"body_id", 1}, {"to", V(0.3, 0, 0)}, {"elapsed", 0.1}}})},
           P{"bodies", {{"body_ids", {2, 99}}}}},
          {P{"bodies", {{"at", At(5, 0.5)}}}},
          {P{"bodies", {{"at", At(5, -0.5)}}}}});
  s.Delete();
  return s.Done();
}

// Projectile and melee verdicts as Tick parts after a frame that sets the
// eyes: answered as the unary calls.
Json TickProjectiles() {
  Script s = Arena("world/tick_projectiles", "conf-tick-projectiles");
  using P = Script::TickPart;
  Json eyes = Json::array();
  for (std::int64_t id : {1, 3}) eyes.push_back({{"id", id}, {"eye", V(0, 0, 1.2)}});
  Json shot = {{"shooter_id", 1},     {"at", At(4)},     {"origin", V(0, 0, 1.2)}, {"velocity", V(4, 0, 0)},
               {"tick_seconds", 0.5}, {"time_limit", 2}, {"claimed", Claim(3, 1)}};
  Json lob = shot;
  lob["velocity"] = V(2, -3, 3);
  lob["gravity"] = V(0, 0, -9.81);
  lob["max_bounces"] = 1;
  lob["restitution"] = 0.5;
  Json arc = {{"attacker_id", 1},
              {"arc", {{"direction", V(1, 0, 0)}, {"up", V(0, 0, 1)}, {"radius", 2.2}, {"angle", 1.0}}},
              {"claimed", Claim(2, 1)}};
  s.Tick({{P{"frame", {{"tick", 6}, {"bodies", eyes}}}, P{"projectiles", Json::array({shot, lob})},
           P{"melee", Json::array({arc})}}});
  s.Delete();
  return s.Done();
}

// The Tick part `visibility` on the arena whose wall and pillar occlude:
// after the message's frame (body 3 stepped behind the wall: hidden from 1
// and 2, it sees neither; 4's eye inside the pillar sees nothing, while 4,
// inside it down to its base, stays visible: conservative), the sets at it;
// then an earlier time with a look-ahead and an unknown observer; its
// errors named under "visibility", after the frame applied; at tick 8, the
// bodies still, the policy's reuse_ticks answers the pairs whose turn it is
// not from the tick-6 sets (`reused`), in every client.
Json TickVisibility() {
  Script s = Arena(
      "world/tick_visibility", "conf-tick-visibility",
      {{"visibility",
        {{"occluder_category_mask", 2 | 4}, {"voxel_size", 0.1}, {"max_voxels", 1 << 20}, {"reuse_ticks", 4}}}});
  using P = Script::TickPart;
  Json bodies = Json::array();
  for (std::int64_t id : {1, 2, 3, 4}) bodies.push_back({{"id", id}, {"eye", V(0, 0, 1.6)}});
  bodies[2]["pose"] = Pose(V(6, 0, 0));
  s.Tick(
      {{P{"frame", {{"tick", 6}, {"bodies", bodies}}}, P{"visibility", Json::object()}},
       {P{"visibility",
          {{"observers", {1, 99}}, {"tick_seconds", 0.5}, {"latency", 0.5}, {"margin", 0.1}, {"at", At(5)}}}},
       {P{"frame", {{"tick", 7}}}, P{"visibility", {{"observers", {1}}, {"latency", -1}}}},
       {P{"frame", {{"tick", 8}}}, P{"visibility", Json::object()}}});
  s.Delete();
  return s.Done();
}

}  // namespace

Json BuildWorldGolden() {
  Json cases = Json::array({Lifecycle(), Frames(), Queries(), Shots(), ShotPolicy(), NegativeTicks(), Moves(),
                            MovementModel(), MovementRules(), MoveBudget(), Errors(), Recreate(), Explain(),
                            ExplainModel(), Projectiles(), Melee(), Visibility()});
  return {{"tolerance", {{"abs", kAbsTolerance}, {"rel", kRelTolerance}}},
          {"server_args",
           {"--max_items_per_request=" + std::to_string(kMaxItemsPerRequest),
            "--max_history_ticks=" + std::to_string(kWorldMaxHistoryTicks),
            "--max_bodies_per_world=" + std::to_string(kWorldMaxBodies),
            "--max_parts_per_body=" + std::to_string(kWorldMaxParts)}},
          {"cases", cases},
          {"stream_cases", Json::array({TickStream(), TickBodies(), TickProjectiles(), TickVisibility()})}};
}

}  // namespace collide::conformance
