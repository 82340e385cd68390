// End to end: the real collide-server binary on a free loopback port, queried
// by the real `collide` CLI and by the client library, then stopped with
// SIGTERM under load. Every child process is killed in teardown.
//
// The reference answer of every call is the core run on the shapes exactly as
// the server sees them: the request is built, decoded with convert/ as the
// server decodes it, and given to collide::Query, so results must be equal
// bit for bit.
#include <fcntl.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/grpcpp.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "collide/client.h"
#include "collide/client_proto.h"
#include "collide/query.h"
#include "convert/packed.h"
#include "convert/requests.h"
#include "convert/shapes.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "support/random_shapes.h"
#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace pb = ::collide::v1;

using testing::ReadFile;
using testing::ServerProcess;
using testing::Spawn;
using testing::TempPath;
using testing::WaitExit;

// The real server as every test here runs it.
ServerProcess* StartServer() {
  return new ServerProcess(COLLIDE_SERVER_BIN, {"--worker_threads=2", "--drain_timeout=10s"});
}

using CliResult = testing::CommandResult;

CliResult RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), COLLIDE_CLI_BIN);
  return testing::RunCommand(args, std::chrono::seconds(30));
}

Client MakeClient(const std::string& target) {
  absl::StatusOr<Client> client = Client::Create(target, {.deadline = absl::Seconds(20)});
  EXPECT_TRUE(client.ok()) << client.status();
  return *std::move(client);
}

// The core's answers for a readable request, on the shapes as the server
// decodes them.
std::vector<PairResult> CoreAnswers(const pb::QueryPairsRequest& request) {
  convert::PairBatch batch;
  convert::ViolationList violations;
  EXPECT_TRUE(convert::Decode(request, batch, violations));
  std::vector<PairResult> out;
  for (std::size_t i = 0; i < batch.size(); ++i) out.push_back(Query(batch.level, batch.a[i], batch.b[i]));
  return out;
}

std::vector<PairResult> CoreAnswers(const pb::QueryPairsPackedRequest& request) {
  convert::PairBatch batch;
  convert::ViolationList violations;
  EXPECT_TRUE(convert::Decode(request, batch, violations));
  std::vector<PairResult> out;
  for (std::size_t i = 0; i < batch.size(); ++i) out.push_back(Query(batch.level, batch.a[i], batch.b[i]));
  return out;
}

// The requests the client library sends (client_proto.h builds them).
pb::QueryPairsRequest ReadableRequest(QueryLevel level, std::span<const ShapePair> pairs) {
  pb::QueryPairsRequest request;
  BuildQueryPairsRequest(level, pairs, request);
  return request;
}

pb::QueryPairsPackedRequest PackedRequest(QueryLevel level, ShapeKind kind, std::span<const double> a,
                                          std::span<const double> b) {
  pb::QueryPairsPackedRequest request;
  EXPECT_TRUE(BuildQueryPairsPackedRequest(level, kind, a, kind, b, request).ok());
  return request;
}

// One server for the query tests.
class E2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = StartServer(); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_GT(server_->port(), 0) << "collide-server did not start:\n" << server_->log();
  }

  static std::string Example(const std::string& name) {
    return std::string(COLLIDE_SOURCE_DIR) + "/examples/" + name;
  }

  static ServerProcess* server_;
};
ServerProcess* E2eTest::server_ = nullptr;

TEST_F(E2eTest, CliHealthExitsZeroWhenServing) {
  const CliResult r = RunCli({"health", "--target=" + server_->target()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "SERVING\n");
}

TEST_F(E2eTest, CliHealthExitsOneWhenNothingListens) {
  // A port that was free a moment ago: bind, read it back, close.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  close(fd);
  const CliResult r =
      RunCli({"health", "--target=127.0.0.1:" + std::to_string(ntohs(addr.sin_port)), "--timeout=500ms"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("UNREACHABLE"));
}

TEST_F(E2eTest, CliInfoPrintsTheServersLimits) {
  const CliResult r = RunCli({"info", "--target=" + server_->target()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("version:"));
  EXPECT_THAT(r.out, HasSubstr("max_items_per_request:"));
}

TEST_F(E2eTest, CliQueryJsonMatchesTheCore) {
  const CliResult r =
      RunCli({"query", Example("pairs.json"), "--format=json", "--target=" + server_->target()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);

  // The same file, decoded as the CLI and the server do.
  json in = json::parse(ReadFile(Example("pairs.json")));
  pb::QueryPairsRequest request;
  in["level"] = "QUERY_LEVEL_CONTACT";
  in.erase("casts");
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(in.dump(), &request).ok());
  const std::vector<PairResult> expected = CoreAnswers(request);
  ASSERT_EQ(out["pairs"].size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const json& got = out["pairs"][i];
    SCOPED_TRACE("pairs[" + std::to_string(i) + "]");
    EXPECT_EQ(got["hit"].get<bool>(), expected[i].hit);
    EXPECT_DOUBLE_EQ(got["distance"].get<double>(), expected[i].distance);
    EXPECT_DOUBLE_EQ(got["normal"]["x"].get<double>(), expected[i].normal.x);
    EXPECT_DOUBLE_EQ(got["normal"]["y"].get<double>(), expected[i].normal.y);
    EXPECT_DOUBLE_EQ(got["point_a"]["x"].get<double>(), expected[i].point_a.x);
    EXPECT_DOUBLE_EQ(got["point_b"]["z"].get<double>(), expected[i].point_b.z);
  }
  ASSERT_EQ(out["casts"].size(), 2u);
  EXPECT_TRUE(out["casts"][0]["hit"].get<bool>());
  EXPECT_DOUBLE_EQ(out["casts"][0]["distance"].get<double>(), 4.0);  // from x = -5 to the unit sphere.
  EXPECT_FALSE(out["casts"][1]["hit"].get<bool>());                  // passes above the box.
}

TEST_F(E2eTest, CliQueryTextPrintsOneLinePerItem) {
  const CliResult r = RunCli({"query", Example("pairs.json"), "--target=" + server_->target()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("pairs[0]  hit   distance -0.5"));  // spheres of radius 1, centres 1.5 apart.
  EXPECT_THAT(r.out, HasSubstr("pairs[3]"));
  EXPECT_THAT(r.out, HasSubstr("casts[0]  hit   distance 4"));
  EXPECT_THAT(r.out, HasSubstr("casts[1]  miss"));
}

TEST_F(E2eTest, CliQueryPrintsEveryViolationPath) {
  const CliResult r = RunCli({"query", Example("invalid.json"), "--target=" + server_->target()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("INVALID_ARGUMENT"));
  EXPECT_THAT(r.err, HasSubstr("pairs[0].b.capsule.radius: "));
  EXPECT_THAT(r.err, HasSubstr("pairs[1].a.aabb"));
}

TEST_F(E2eTest, LibraryReadableMatchesTheCoreForEveryKindAndLevel) {
  Client client = MakeClient(server_->target());
  testing::ShapeFactory factory(7);
  std::vector<ShapePair> pairs;
  for (int a = 0; a < kShapeKindCount; ++a) {
    for (int b = 0; b < kShapeKindCount; ++b) {
      if (!IsSupported(static_cast<ShapeKind>(a), static_cast<ShapeKind>(b))) continue;
      for (int i = 0; i < 4; ++i) {
        pairs.push_back({factory.Make(static_cast<ShapeKind>(a)), factory.Make(static_cast<ShapeKind>(b))});
      }
    }
  }
  for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kDistance, QueryLevel::kContact}) {
    SCOPED_TRACE(static_cast<int>(level));
    const absl::StatusOr<std::vector<PairResult>> got = client.QueryPairs(level, pairs);
    ASSERT_TRUE(got.ok()) << DescribeStatus(got.status());
    const std::vector<PairResult> expected = CoreAnswers(ReadableRequest(level, pairs));
    ASSERT_EQ(got->size(), expected.size());
    int hits = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ((*got)[i], expected[i]) << "pair " << i;
      hits += expected[i].hit;
    }
    // Not all misses: the comparison must mean something.
    EXPECT_GT(hits, static_cast<int>(expected.size()) / 10);
  }
}

// CallSerialized (what collide bench sends) answers as the typed calls do.
TEST_F(E2eTest, LibrarySerializedCallsAnswerAsTheMessageCalls) {
  Client client = MakeClient(server_->target());
  testing::ShapeFactory factory(8);
  std::vector<ShapePair> pairs;
  std::vector<double> a, b;
  for (int i = 0; i < 300; ++i) {
    pairs.push_back({factory.Make(ShapeKind::kObb), factory.Make(ShapeKind::kObb)});
    AppendPacked(pairs.back().a, a);
    AppendPacked(pairs.back().b, b);
  }
  const pb::QueryPairsRequest readable = ReadableRequest(QueryLevel::kContact, pairs);
  pb::QueryPairsResponse expected, got;
  ASSERT_TRUE(CallQueryPairs(client, readable, expected).ok());
  ASSERT_TRUE(CallSerialized(client, QueryMethod::kQueryPairs, readable.SerializeAsString(), got).ok());
  EXPECT_EQ(got.SerializeAsString(), expected.SerializeAsString());
  EXPECT_EQ(got.results_size(), 300);

  const pb::QueryPairsPackedRequest packed = PackedRequest(QueryLevel::kDistance, ShapeKind::kObb, a, b);
  pb::QueryPairsPackedResponse packed_expected, packed_got;
  ASSERT_TRUE(CallQueryPairsPacked(client, packed, packed_expected).ok());
  ASSERT_TRUE(
      CallSerialized(client, QueryMethod::kQueryPairsPacked, packed.SerializeAsString(), packed_got).ok());
  EXPECT_EQ(packed_got.SerializeAsString(), packed_expected.SerializeAsString());
  EXPECT_EQ(packed_got.hit_size(), 300);

  pb::QueryPairsRequest invalid = readable;
  invalid.mutable_pairs(17)->mutable_a()->mutable_sphere()->set_radius(-1);
  const absl::Status status =
      CallSerialized(client, QueryMethod::kQueryPairs, invalid.SerializeAsString(), got);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), ::testing::HasSubstr("pairs[17].a.sphere.radius"));
}

// collide bench, every encoding and client path: every call OK, and the
// service's hit rate equals the in-process core's on the same pairs.
TEST_F(E2eTest, CliBenchCallsSucceedAndHitRatesMatchTheCore) {
  for (const std::string encoding : {"packed", "readable"}) {
    for (const std::string path : {"wire", "typed"}) {
      SCOPED_TRACE(encoding + " " + path);
      const CliResult r = RunCli({"bench", "--target=" + server_->target(), "--encoding=" + encoding,
                                  "--client_path=" + path, "--batch=300", "--concurrency=2",
                                  "--duration=500ms", "--baseline_duration=100ms", "--level=contact"});
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
      std::smatch service, core, ok;
      const std::regex service_line(R"(service +[0-9]+ pairs/s +([0-9]+) calls OK +hit rate ([0-9.]+)%)");
      const std::regex core_line(R"(core +[0-9]+ pairs/s .* hit rate ([0-9.]+)%)");
      ASSERT_TRUE(std::regex_search(r.out, service, service_line)) << r.out;
      ASSERT_TRUE(std::regex_search(r.out, core, core_line)) << r.out;
      EXPECT_GT(std::stoi(service[1]), 0);
      EXPECT_EQ(service[2], core[1]);
      EXPECT_THAT(r.out, ::testing::HasSubstr("status  OK "));
    }
  }
}

TEST_F(E2eTest, LibraryPackedMatchesTheCoreForEveryPackedKind) {
  Client client = MakeClient(server_->target());
  testing::ShapeFactory factory(11);
  for (int k = 0; k < kShapeKindCount; ++k) {
    const auto kind = static_cast<ShapeKind>(k);
    if (PackedStride(kind) == 0 || !IsSupported(kind, kind)) continue;
    SCOPED_TRACE(ShapeKindName(kind));
    std::vector<double> a, b;
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(AppendPacked(factory.Make(kind), a));
      ASSERT_TRUE(AppendPacked(factory.Make(kind), b));
    }
    for (QueryLevel level : {QueryLevel::kIntersect, QueryLevel::kContact}) {
      const absl::StatusOr<std::vector<PairResult>> got = client.QueryPairsPacked(level, kind, a, kind, b);
      ASSERT_TRUE(got.ok()) << DescribeStatus(got.status());
      EXPECT_EQ(*got, CoreAnswers(PackedRequest(level, kind, a, b)));
    }
  }
}

TEST_F(E2eTest, LibraryRaysMatchTheCoreReadableAndPacked) {
  Client client = MakeClient(server_->target());
  testing::ShapeFactory factory(13);
  std::vector<ShapeRay> casts;
  std::vector<double> rays, spheres;
  for (int i = 0; i < 300; ++i) {
    casts.push_back({factory.MakeRay(), factory.Make(static_cast<ShapeKind>(i % kShapeKindCount))});
    const ShapeRay& c = casts.back();
    rays.insert(rays.end(), {c.ray.origin.x, c.ray.origin.y, c.ray.origin.z, c.ray.direction.x,
                             c.ray.direction.y, c.ray.direction.z, c.ray.max_distance});
    ASSERT_TRUE(AppendPacked(factory.Make(ShapeKind::kSphere), spheres));
  }
  const absl::StatusOr<std::vector<RayHit>> readable = client.CastRays(casts);
  ASSERT_TRUE(readable.ok()) << DescribeStatus(readable.status());
  pb::CastRaysRequest request;
  for (const ShapeRay& c : casts) {
    pb::RayCast* out = request.add_casts();
    convert::ToProto(c.ray, out->mutable_ray());
    convert::ToProto(c.shape, out->mutable_shape());
  }
  convert::RayBatch batch;
  convert::ViolationList violations;
  ASSERT_TRUE(convert::Decode(request, batch, violations));
  int hits = 0;
  for (std::size_t i = 0; i < casts.size(); ++i) {
    EXPECT_EQ((*readable)[i], RayCast(batch.rays[i], batch.shapes[i])) << "cast " << i;
    hits += (*readable)[i].hit;
  }
  EXPECT_GT(hits, 10);

  const absl::StatusOr<std::vector<RayHit>> packed = client.CastRaysPacked(rays, ShapeKind::kSphere, spheres);
  ASSERT_TRUE(packed.ok()) << DescribeStatus(packed.status());
  ASSERT_EQ(packed->size(), casts.size());
  for (std::size_t i = 0; i < casts.size(); ++i) {
    Shape sphere;
    std::vector<Violation> ignored;
    ASSERT_TRUE(convert::UnpackShape(ShapeKind::kSphere, &spheres[4 * i], sphere, ignored));
    EXPECT_EQ((*packed)[i], RayCast(casts[i].ray, sphere)) << "cast " << i;
  }
}

TEST_F(E2eTest, LibraryReportsTheBadFieldsPath) {
  Client client = MakeClient(server_->target());
  std::vector<ShapePair> pairs(5, ShapePair{Sphere{{0, 0, 0}, 1}, Sphere{{1, 0, 0}, 1}});
  pairs[3].b = Capsule{{0, 0, 0}, {1, 0, 0}, -1};
  const absl::StatusOr<std::vector<PairResult>> r = client.QueryPairs(QueryLevel::kContact, pairs);
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  const std::vector<Violation> violations = FieldViolations(r.status());
  ASSERT_EQ(violations.size(), 1u) << DescribeStatus(r.status());
  EXPECT_EQ(violations[0].field, "pairs[3].b.capsule.radius");
  EXPECT_THAT(DescribeStatus(r.status()), HasSubstr("\n  pairs[3].b.capsule.radius: "));
}

// SIGTERM while several threads loop large packed batches: every call either
// completes OK with exactly the core's answers or fails UNAVAILABLE (refused
// before it was accepted, after the client's retries); an open health Watch
// sees NOT_SERVING; the server exits 0.
TEST(E2eDrainTest, SigtermDrainsCallsInFlight) {
  std::unique_ptr<ServerProcess> server_owner(StartServer());
  ServerProcess& server = *server_owner;
  ASSERT_GT(server.port(), 0) << "collide-server did not start:\n" << server.log();

  testing::ShapeFactory factory(17);
  constexpr int kPairs = 4096;
  std::vector<double> a, b;
  for (int i = 0; i < kPairs; ++i) {
    AppendPacked(factory.Make(ShapeKind::kObb), a);
    AppendPacked(factory.Make(ShapeKind::kObb), b);
  }
  const std::vector<PairResult> expected =
      CoreAnswers(PackedRequest(QueryLevel::kContact, ShapeKind::kObb, a, b));

  // A health Watch stream opened while SERVING; it reads on into the drain
  // and cancels itself at NOT_SERVING (an open stream would hold the drain).
  auto channel = grpc::CreateChannel(server.target(), grpc::InsecureChannelCredentials());
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext watch_context;
  watch_context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  auto watch = health->Watch(&watch_context, grpc::health::v1::HealthCheckRequest());
  grpc::health::v1::HealthCheckResponse first;
  ASSERT_TRUE(watch->Read(&first));
  ASSERT_EQ(first.status(), grpc::health::v1::HealthCheckResponse::SERVING);
  std::atomic<bool> saw_not_serving{false};
  std::jthread watcher([&] {
    grpc::health::v1::HealthCheckResponse update;
    while (watch->Read(&update)) {
      if (update.status() == grpc::health::v1::HealthCheckResponse::NOT_SERVING) {
        saw_not_serving = true;
        watch_context.TryCancel();
      }
    }
    (void)watch->Finish();
  });

  constexpr int kThreads = 4;
  // The load runs until the server goes away (a thread stops at its first
  // failure), not for a number of calls a fast machine could finish before
  // the SIGTERM; the deadline only bounds the run if SIGTERM were ignored.
  const Clock::time_point load_deadline = Clock::now() + testing::kHungAfter;
  std::atomic<int> ok_calls{0};
  std::mutex mu;
  std::map<absl::StatusCode, int> failures;
  std::string first_failure;
  std::atomic<bool> terminated{false};
  int ok_after_sigterm = 0;  // calls in flight at SIGTERM that the drain let finish.
  int wrong_results = 0;
  Client client = MakeClient(server.target());
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&] {
        while (Clock::now() < load_deadline) {
          absl::StatusOr<std::vector<PairResult>> r =
              client.QueryPairsPacked(QueryLevel::kContact, ShapeKind::kObb, a, ShapeKind::kObb, b);
          std::lock_guard lock(mu);
          if (!r.ok()) {
            if (failures.empty()) first_failure = DescribeStatus(r.status());
            ++failures[r.status().code()];
            return;  // the server is gone; later calls would fail the same way.
          }
          ok_calls.fetch_add(1);
          if (terminated) ++ok_after_sigterm;
          if (*r != expected) ++wrong_results;
        }
      });
    }
    // Let the load run, then stop the server under it.
    testing::WaitFor([&] { return ok_calls >= 2 * kThreads; });
    terminated = true;
    server.Terminate();
  }
  const std::optional<int> exit_code = server.Wait(std::chrono::seconds(30));

  watcher.join();

  EXPECT_GE(ok_calls, 2 * kThreads);
  // Usually > 0, but a call may also be between send and dispatch at SIGTERM
  // (then refused and retried), so it is reported, not required.
  RecordProperty("ok_calls_after_sigterm", ok_after_sigterm);
  std::cout << "calls OK: " << ok_calls << ", of which finished after SIGTERM: " << ok_after_sigterm << "\n";
  EXPECT_EQ(wrong_results, 0);
  for (const auto& [code, n] : failures) {
    EXPECT_EQ(code, absl::StatusCode::kUnavailable)
        << n << " calls failed with " << absl::StatusCodeToString(code) << "; the first: " << first_failure
        << "\nserver log:\n"
        << server.log();
  }
  EXPECT_TRUE(saw_not_serving);
  ASSERT_TRUE(exit_code.has_value()) << "collide-server did not exit after SIGTERM";
  EXPECT_EQ(*exit_code, 0) << server.log();
  EXPECT_THAT(server.log(), HasSubstr("stopped"));
}

}  // namespace
}  // namespace collide
