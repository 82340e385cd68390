// The C++ WorldClient and its TickStream against the world conformance scripts
// (world_golden.json, $COLLIDE_WORLD_GOLDEN; format in world_cases.h), on a
// collide-server ($COLLIDE_SERVER) that this test starts, restarts where a
// script says so, and stops. The client's API takes core types: each step's
// request is decoded with convert/ (as the server would decode it), sent
// through the typed call, and the answer encoded back with convert/ for the
// comparison; CreateWorld goes through the wire form (world_client_proto.h),
// which the client keeps for re-creation the same way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "collide/client.h"
#include "collide/v1/world.pb.h"
#include "collide/world_client.h"
#include "collide/world_client_proto.h"
#include "conformance/expect_error.h"
#include "conformance/golden_compare.h"
#include "conformance/golden_json.h"
#include "conformance/live_server.h"
#include "convert/violations.h"
#include "convert/world_explain.h"
#include "convert/world_packed.h"
#include "convert/world_projectiles.h"
#include "convert/world_requests.h"
#include "convert/world_results.h"

namespace collide {
namespace {

using Json = nlohmann::json;

template <typename Message>
Message FromJson(const Json& j) {
  Message m;
  const std::string error = conformance::FromGoldenJson(j, m);
  EXPECT_TRUE(error.empty()) << "bad step JSON: " << error;
  return m;
}

Json ToJson(const google::protobuf::Message& m) {
  Json j = conformance::GoldenJson(m);
  conformance::IntsAsNumbers(j);
  return j;
}

Json InfoJson(const WorldInfo& info) {
  v1::WorldPolicy policy;
  convert::ToProto(info.settings, &policy);
  return {{"world_id", info.id},
          {"static_elements", info.static_elements},
          {"triangles", info.triangles},
          {"degenerate_triangles", info.degenerate_triangles},
          {"bodies", info.bodies},
          {"latest_tick", info.latest_tick},
          {"oldest_tick", info.oldest_tick},
          {"frames_kept", info.frames_kept},
          {"history_ticks", info.settings.history_ticks},
          {"policy", ToJson(policy)}};
}

Json VisibilityJson(const VisibilityResult& sets) {
  v1::GetVisibilityResponse out;
  convert::ToProto(sets, &out);
  return ToJson(out);
}

// Runs one step through the typed API; `response` gets the answer as golden JSON.
absl::Status RunStep(WorldClient& client, const std::string& rpc, const Json& request, Json& response) {
  const std::string id = request.value("world_id", "");
  convert::ViolationList violations;
  convert::DecodeArena arena;
  if (rpc == "CreateWorld") {
    absl::StatusOr<WorldInfo> info = CreateWorld(client, FromJson<v1::CreateWorldRequest>(request));
    if (info.ok()) response = InfoJson(*info);
    return info.status();
  }
  if (rpc == "GetWorld") {
    absl::StatusOr<WorldInfo> info = client.GetWorld(id);
    if (info.ok()) response = InfoJson(*info);
    return info.status();
  }
  if (rpc == "DeleteWorld") {
    response = Json::object();
    return client.DeleteWorld(id);
  }
  if (rpc == "ListWorlds") {
    absl::StatusOr<std::vector<WorldInfo>> worlds = client.ListWorlds();
    if (!worlds.ok()) return worlds.status();
    std::sort(worlds->begin(), worlds->end(),
              [](const WorldInfo& a, const WorldInfo& b) { return a.id < b.id; });
    response = {{"worlds", Json::array()}};
    for (const WorldInfo& w : *worlds) response["worlds"].push_back(InfoJson(w));
    return absl::OkStatus();
  }
  if (rpc == "PushFrame") {
    Frame frame;
    if (!convert::DecodeFrame(FromJson<v1::Frame>(request["frame"]), "frame", frame, arena, violations)) {
      return absl::InvalidArgumentError("the step's frame does not decode: " + violations.kept()[0].field);
    }
    absl::StatusOr<std::int64_t> oldest = client.PushFrame(id, frame);
    if (oldest.ok()) response = {{"oldest_tick", *oldest}};
    return oldest.status();
  }
  if (rpc == "QueryWorld") {
    convert::WorldQueries queries;
    if (!convert::DecodeQueries(FromJson<v1::QueryWorldRequest>(request), queries, arena, violations)) {
      return absl::InvalidArgumentError("the step's queries do not decode");
    }
    absl::StatusOr<SceneAnswers> answers =
        client.Query(id, {queries.rays, queries.shape_casts, queries.overlaps});
    if (!answers.ok()) return answers.status();
    v1::QueryWorldResponse out;
    for (const RayQueryResult& r : answers->rays) convert::ToProto(r, out.add_ray_casts());
    for (const ShapeCastResult& r : answers->shape_casts) convert::ToProto(r, out.add_shape_casts());
    for (const OverlapQueryResult& r : answers->overlaps) convert::ToProto(r, out.add_overlaps());
    response = ToJson(out);
    return absl::OkStatus();
  }
  if (rpc == "CastWorldRaysPacked") {
    const auto in = FromJson<v1::CastWorldRaysPackedRequest>(request);
    std::vector<RayQuery> queries;
    if (!convert::DecodePacked(in, queries, violations) || queries.empty()) {
      return absl::InvalidArgumentError("the step's packed rays do not decode");
    }
    std::vector<Ray> rays;
    for (const RayQuery& q : queries) rays.push_back(q.ray);
    absl::StatusOr<std::vector<RayQueryResult>> results =
        client.CastRaysPacked(id, rays, queries[0].filter, queries[0].at);
    if (!results.ok()) return results.status();
    v1::CastWorldRaysPackedResponse out;
    convert::EncodePacked(*results, &out);
    response = ToJson(out);
    return absl::OkStatus();
  }
  if (rpc == "ValidateShots" || rpc == "ValidateShotsPacked") {
    std::vector<ShotRequest> shots;
    if (rpc == "ValidateShots") {
      convert::DecodeShots(FromJson<v1::ValidateShotsRequest>(request), shots, violations);
    } else if (!convert::DecodePacked(FromJson<v1::ValidateShotsPackedRequest>(request), shots, violations)) {
      return absl::InvalidArgumentError("the step's packed shots do not decode");
    }
    const WorldClient::Batch batch = request.value("all_or_nothing", false)
                                         ? WorldClient::Batch::kAllOrNothing
                                         : WorldClient::Batch::kPerItem;
    absl::StatusOr<std::vector<ShotVerdict>> verdicts = rpc == "ValidateShots"
                                                            ? client.ValidateShots(id, shots, batch)
                                                            : client.ValidateShotsPacked(id, shots, batch);
    if (!verdicts.ok()) return verdicts.status();
    v1::ValidateShotsResponse out;
    for (const ShotVerdict& v : *verdicts) convert::ToProto(v, out.add_verdicts());
    response = ToJson(out);
    return absl::OkStatus();
  }
  if (rpc == "ValidateMoves") {
    std::vector<MoveRequest> moves;
    convert::DecodeMoves(FromJson<v1::ValidateMovesRequest>(request), moves, violations);
    const WorldClient::Batch batch = request.value("all_or_nothing", false)
                                         ? WorldClient::Batch::kAllOrNothing
                                         : WorldClient::Batch::kPerItem;
    absl::StatusOr<std::vector<MoveVerdict>> verdicts = client.ValidateMoves(id, moves, batch);
    if (!verdicts.ok()) return verdicts.status();
    v1::ValidateMovesResponse out;
    for (const MoveVerdict& v : *verdicts) convert::ToProto(v, out.add_verdicts());
    response = ToJson(out);
    return absl::OkStatus();
  }
  if (rpc == "GetBodies") {
    const convert::BodiesQuery query = convert::FromProto(FromJson<v1::GetBodiesRequest>(request));
    absl::StatusOr<BodiesResult> bodies = client.GetBodies(id, query.at, query.ids);
    if (!bodies.ok()) return bodies.status();
    v1::GetBodiesResponse out;
    convert::ToProto(*bodies, &out);
    response = ToJson(out);
    return absl::OkStatus();
  }
  if (rpc == "ValidateProjectiles" || rpc == "ValidateMelee") {
    const WorldClient::Batch batch = request.value("all_or_nothing", false)
                                         ? WorldClient::Batch::kAllOrNothing
                                         : WorldClient::Batch::kPerItem;
    if (rpc == "ValidateProjectiles") {
      const auto projectiles = convert::DecodeProjectiles(FromJson<v1::ValidateProjectilesRequest>(request));
      absl::StatusOr<std::vector<ProjectileVerdict>> verdicts =
          client.ValidateProjectiles(id, projectiles, batch);
      if (!verdicts.ok()) return verdicts.status();
      v1::ValidateProjectilesResponse out;
      for (const ProjectileVerdict& v : *verdicts) convert::ToProto(v, out.add_verdicts());
      response = ToJson(out);
    } else {
      const auto swings = convert::DecodeMelee(FromJson<v1::ValidateMeleeRequest>(request));
      absl::StatusOr<std::vector<MeleeVerdict>> verdicts = client.ValidateMelee(id, swings, batch);
      if (!verdicts.ok()) return verdicts.status();
      v1::ValidateMeleeResponse out;
      for (const MeleeVerdict& v : *verdicts) convert::ToProto(v, out.add_verdicts());
      response = ToJson(out);
    }
    return absl::OkStatus();
  }
  if (rpc == "GetVisibility") {
    absl::StatusOr<VisibilityResult> sets =
        client.GetVisibility(id, convert::DecodeVisibility(FromJson<v1::GetVisibilityRequest>(request)));
    if (sets.ok()) response = VisibilityJson(*sets);
    return sets.status();
  }
  return absl::InvalidArgumentError("unknown rpc " + rpc);
}

// A Tick message's parts as a TickMessage ("shots" and "shots_packed" both
// become its shots, which the client sends packed).
absl::Status TickMessageOf(const Json& message, TickMessage& out, convert::DecodeArena& arena) {
  convert::ViolationList violations;
  for (const auto& [part, request] : message.items()) {
    bool ok = true;
    if (part == "frame") {
      out.frame.emplace();
      ok = convert::DecodeFrame(FromJson<v1::Frame>(request), "frame", *out.frame, arena, violations);
    } else if (part == "query") {
      convert::WorldQueries q;
      ok = convert::DecodeQueries(FromJson<v1::QueryWorldRequest>(request), q, arena, violations);
      out.query = {q.rays, q.shape_casts, q.overlaps};
    } else if (part == "rays_packed") {
      std::vector<RayQuery> rays;
      ok = convert::DecodePacked(FromJson<v1::CastWorldRaysPackedRequest>(request), rays, violations) &&
           !rays.empty();
      for (const RayQuery& r : rays) out.rays.push_back(r.ray);
      if (ok) out.rays_filter = rays[0].filter, out.rays_at = rays[0].at;
    } else if (part == "shots") {
      convert::DecodeShots(FromJson<v1::ValidateShotsRequest>(request), out.shots, violations);
    } else if (part == "shots_packed") {
      ok = convert::DecodePacked(FromJson<v1::ValidateShotsPackedRequest>(request), out.shots, violations);
    } else if (part == "moves") {
      convert::DecodeMoves(FromJson<v1::ValidateMovesRequest>(request), out.moves, violations);
    } else if (part == "bodies") {
      const convert::BodiesQuery q = convert::FromProto(FromJson<v1::GetBodiesRequest>(request));
      out.bodies = TickBodies{q.at, q.ids};
    } else if (part == "projectiles") {
      out.projectiles = convert::DecodeProjectiles(FromJson<v1::ValidateProjectilesRequest>(request));
    } else if (part == "melee") {
      out.melee = convert::DecodeMelee(FromJson<v1::ValidateMeleeRequest>(request));
    } else if (part == "visibility") {
      out.visibility = convert::DecodeVisibility(FromJson<v1::GetVisibilityRequest>(request));
    } else {
      return absl::InvalidArgumentError("unknown Tick part " + part);
    }
    if (!ok) return absl::InvalidArgumentError("the message's " + part + " does not decode");
  }
  return absl::OkStatus();
}

// A TickReply as golden JSON, for the parts `message` holds (a part that did
// not run: null; the client's reply leaves it empty).
Json TickAnswerJson(const Json& message, const TickReply& reply) {
  Json out = Json::object();
  const bool query_ran =
      !reply.query.rays.empty() || !reply.query.shape_casts.empty() || !reply.query.overlaps.empty();
  for (const auto& [part, request] : message.items()) {
    if (part == "frame") {
      out[part] = reply.oldest_tick ? Json{{"oldest_tick", *reply.oldest_tick}} : Json();
    } else if (part == "query" && query_ran) {
      v1::QueryWorldResponse q;
      for (const RayQueryResult& r : reply.query.rays) convert::ToProto(r, q.add_ray_casts());
      for (const ShapeCastResult& r : reply.query.shape_casts) convert::ToProto(r, q.add_shape_casts());
      for (const OverlapQueryResult& r : reply.query.overlaps) convert::ToProto(r, q.add_overlaps());
      out[part] = ToJson(q);
    } else if (part == "rays_packed" && !reply.rays.empty()) {
      v1::CastWorldRaysPackedResponse r;
      convert::EncodePacked(reply.rays, &r);
      out[part] = ToJson(r);
    } else if ((part == "shots" || part == "shots_packed") && !reply.shots.empty()) {
      v1::ValidateShotsResponse r;
      for (const ShotVerdict& v : reply.shots) convert::ToProto(v, r.add_verdicts());
      out[part] = ToJson(r);
    } else if (part == "moves" && !reply.moves.empty()) {
      v1::ValidateMovesResponse r;
      for (const MoveVerdict& v : reply.moves) convert::ToProto(v, r.add_verdicts());
      out[part] = ToJson(r);
    } else if (part == "bodies" && reply.bodies) {
      v1::GetBodiesResponse r;
      convert::ToProto(*reply.bodies, &r);
      out[part] = ToJson(r);
    } else if (part == "projectiles" && !reply.projectiles.empty()) {
      v1::ValidateProjectilesResponse r;
      for (const ProjectileVerdict& v : reply.projectiles) convert::ToProto(v, r.add_verdicts());
      out[part] = ToJson(r);
    } else if (part == "melee" && !reply.melee.empty()) {
      v1::ValidateMeleeResponse r;
      for (const MeleeVerdict& v : reply.melee) convert::ToProto(v, r.add_verdicts());
      out[part] = ToJson(r);
    } else if (part == "visibility" && reply.visibility) {
      out[part] = VisibilityJson(*reply.visibility);
    } else {
      out[part] = nullptr;
    }
  }
  return out;
}

// A "tick" step (world_cases.h): one stream, each message sent and answered
// in turn, closed.
void RunTickStep(WorldClient& client, const std::string& world_id, const Json& exchange, double abs,
                 double rel) {
  absl::StatusOr<std::unique_ptr<TickStream>> stream = client.OpenTickStream(world_id);
  ASSERT_TRUE(stream.ok()) << stream.status();
  for (size_t i = 0; i < exchange.size(); ++i) {
    SCOPED_TRACE("message " + std::to_string(i));
    const Json& message = exchange[i]["message"];
    Json want = exchange[i]["answer"];
    TickMessage m;
    convert::DecodeArena arena;
    ASSERT_TRUE(TickMessageOf(message, m, arena).ok());
    const std::int64_t losses = client.history_losses();
    absl::StatusOr<TickReply> reply = (*stream)->Send(std::move(m));
    ASSERT_TRUE(reply.ok()) << reply.status();
    EXPECT_EQ(client.history_losses() - losses, exchange[i].value("history_lost", false) ? 1 : 0);
    if (want.contains("error")) {
      conformance::ExpectError(reply->status, want["error"]);
      want.erase("error");
    } else {
      EXPECT_TRUE(reply->status.ok()) << DescribeStatus(reply->status);
    }
    EXPECT_EQ(conformance::Mismatch(TickAnswerJson(message, *reply), want, abs, rel, "answer"), "");
  }
  EXPECT_TRUE((*stream)->Finish().ok());
}

// Every script of `list` ("cases" or "stream_cases") on a server this
// starts, restarts where a script says so, and stops.
void RunScripts(const std::string& server_binary, const Json& golden, const char* list) {
  ASSERT_FALSE(golden[list].empty());
  const double abs = golden["tolerance"]["abs"], rel = golden["tolerance"]["rel"];
  conformance::LiveServer server(server_binary, golden["server_args"].get<std::vector<std::string>>());
  ASSERT_FALSE(server.target().empty()) << "collide-server did not start:\n" << server.log();
  absl::StatusOr<WorldClient> client = WorldClient::Create(server.target());
  ASSERT_TRUE(client.ok()) << client.status();

  int restarts = 0;
  for (const Json& c : golden[list]) {
    for (size_t i = 0; i < c["steps"].size(); ++i) {
      const Json& step = c["steps"][i];
      SCOPED_TRACE(c["name"].get<std::string>() + " step " + std::to_string(i));
      if (step.value("restart_server", false)) {
        server.Restart();
        ASSERT_FALSE(server.target().empty()) << "collide-server did not restart:\n" << server.log();
        // Reach the new server: a read-only call, retried past the killed
        // connection's UNAVAILABLE.
        ASSERT_TRUE(client->ListWorlds().ok());
        ++restarts;
        continue;
      }
      if (step.contains("tick")) {
        RunTickStep(*client, c["steps"][0]["request"]["world_id"], step["tick"], abs, rel);
        continue;
      }
      const std::int64_t losses = client->history_losses();
      Json response;
      const absl::Status s = RunStep(*client, step["rpc"], step["request"], response);
      EXPECT_EQ(client->history_losses() - losses, step.value("history_lost", false) ? 1 : 0);
      if (step.contains("error")) {
        conformance::ExpectError(s, step["error"]);
        continue;
      }
      ASSERT_TRUE(s.ok()) << DescribeStatus(s);
      EXPECT_EQ(conformance::Mismatch(response, step["response"], abs, rel, "response"), "");
    }
  }
  EXPECT_GT(restarts, 0);
}

class WorldConformanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // ctest sets both (tests/conformance/CMakeLists.txt); the skip only
    // explains a bare run of the binary.
    const char* server = std::getenv("COLLIDE_SERVER");
    const char* golden = std::getenv("COLLIDE_WORLD_GOLDEN");
    if (!server || !golden) GTEST_SKIP() << "needs COLLIDE_SERVER and COLLIDE_WORLD_GOLDEN (ctest sets them)";
    server_ = server;
    golden_ = Json::parse(conformance::ReadFile(golden));
  }
  std::string server_;
  Json golden_;
};

TEST_F(WorldConformanceTest, EveryScript) { RunScripts(server_, golden_, "cases"); }

// The Tick stream (TickStream), whose messages send shots packed.
TEST_F(WorldConformanceTest, EveryStreamScript) { RunScripts(server_, golden_, "stream_cases"); }

}  // namespace
}  // namespace collide
