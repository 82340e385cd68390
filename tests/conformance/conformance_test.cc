// The C++ client against the conformance goldens: every case of
// golden.json ($COLLIDE_GOLDEN) sent through collide::Client's wire-level
// calls (client_proto.h: the typed API cannot express an unset oneof or an
// unknown enum) to a collide-server ($COLLIDE_SERVER) that this test starts
// on a free loopback port and stops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "collide/client.h"
#include "collide/client_proto.h"
#include "conformance/expect_error.h"
#include "conformance/golden_compare.h"
#include "conformance/golden_json.h"
#include "conformance/live_server.h"

namespace collide {
namespace {

using Json = nlohmann::json;

absl::Status FromJson(const Json& j, google::protobuf::Message& m) {
  const std::string error = conformance::FromGoldenJson(j, m);
  return error.empty() ? absl::OkStatus() : absl::InvalidArgumentError("bad case JSON: " + error);
}

// Sends the case's request and returns the response as JSON.
absl::Status RunCase(Client& client, const std::string& rpc, const Json& request, Json& response) {
  absl::Status s;
  if (rpc == "QueryPairs") {
    v1::QueryPairsRequest req;
    v1::QueryPairsResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallQueryPairs(client, req, resp)).ok())
      response = conformance::GoldenJson(resp);
  } else if (rpc == "QueryPairsPacked") {
    v1::QueryPairsPackedRequest req;
    v1::QueryPairsPackedResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallQueryPairsPacked(client, req, resp)).ok()) {
      response = conformance::GoldenJson(resp);
    }
  } else if (rpc == "CastRays") {
    v1::CastRaysRequest req;
    v1::CastRaysResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallCastRays(client, req, resp)).ok())
      response = conformance::GoldenJson(resp);
  } else if (rpc == "CastRaysPacked") {
    v1::CastRaysPackedRequest req;
    v1::CastRaysPackedResponse resp;
    if (s = FromJson(request, req); s.ok() && (s = CallCastRaysPacked(client, req, resp)).ok()) {
      response = conformance::GoldenJson(resp);
    }
  } else if (rpc == "GetServerInfo") {
    absl::StatusOr<ServerInfo> info = client.GetServerInfo();
    s = info.status();
    if (s.ok()) {
      if (info->version.empty() || info->replica.empty())
        return absl::InternalError("empty version or replica");
      response = {{"max_items_per_request", info->max_items_per_request}};
    }
  } else if (rpc == "Health") {
    absl::StatusOr<bool> serving = client.Health(absl::Seconds(10));
    s = serving.status();
    if (s.ok()) response = {{"status", *serving ? "SERVING" : "NOT_SERVING"}};
  } else {
    s = absl::InvalidArgumentError("unknown rpc " + rpc);
  }
  return s;
}

TEST(ConformanceTest, EveryGoldenCase) {
  const char* server_binary = std::getenv("COLLIDE_SERVER");
  const char* golden_path = std::getenv("COLLIDE_GOLDEN");
  // ctest always sets both (tests/conformance/CMakeLists.txt); the skip only
  // explains a bare run of the binary, which has no server to test.
  if (!server_binary || !golden_path)
    GTEST_SKIP() << "needs COLLIDE_SERVER and COLLIDE_GOLDEN (ctest sets them)";
  const Json golden = Json::parse(conformance::ReadFile(golden_path));
  ASSERT_FALSE(golden["cases"].empty());
  const double abs = golden["tolerance"]["abs"], rel = golden["tolerance"]["rel"];

  conformance::LiveServer server(server_binary, golden["server_args"].get<std::vector<std::string>>());
  ASSERT_FALSE(server.target().empty()) << "collide-server did not start:\n" << server.log();
  // One attempt per call: a retry would hide a transport bug.
  absl::StatusOr<Client> client = Client::Create(server.target(), {.max_attempts = 1});
  ASSERT_TRUE(client.ok()) << client.status();

  for (const Json& c : golden["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    Json response;
    const absl::Status s = RunCase(*client, c["rpc"], c["request"], response);
    if (c.contains("error")) {
      conformance::ExpectError(s, c["error"]);
      continue;
    }
    ASSERT_TRUE(s.ok()) << DescribeStatus(s);
    EXPECT_EQ(conformance::Mismatch(response, c["response"], abs, rel, "response"), "");
  }
}

}  // namespace
}  // namespace collide
