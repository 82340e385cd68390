// The client library against an in-process fake CollisionService on a free
// loopback port: the retry policy (UNAVAILABLE retried up to max_attempts,
// nothing else retried), BadRequest details reaching FieldViolations and
// DescribeStatus, health, and the packed and readable conversions. The real
// server is exercised end to end in tests/e2e/.
#include "collide/client.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>

#include <atomic>
#include <memory>
#include <vector>

#include "collide/v1/collide.grpc.pb.h"
#include "gmock/gmock.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"

namespace collide {
namespace {

namespace pb = ::collide::v1;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FakeService final : public pb::CollisionService::Service {
 public:
  // Calls of QueryPairsPacked answered UNAVAILABLE before the first success.
  std::atomic<int> unavailable_first{0};
  // Calls answered CANCELLED first (as a shutting-down gRPC server does).
  std::atomic<int> cancelled_first{0};
  std::atomic<int> packed_calls{0};
  std::atomic<int> pairs_calls{0};
  // Makes QueryPairsPacked answer one hit too few.
  std::atomic<bool> malformed{false};
  pb::QueryPairsRequest last_pairs_request;

  grpc::Status QueryPairsPacked(grpc::ServerContext*, const pb::QueryPairsPackedRequest* request,
                                pb::QueryPairsPackedResponse* response) override {
    const int call = packed_calls.fetch_add(1);
    if (call < cancelled_first) return grpc::Status::CANCELLED;
    if (call < unavailable_first) return {grpc::StatusCode::UNAVAILABLE, "warming up"};
    // Pair i: hit when i is odd, distance i, point_a (i, 0, 0), point_b
    // (0, i, 0), normal (0, 0, 1); pair 1 did not converge.
    const int n = request->a().data_size() / 4;
    for (int i = 0; i < n - (malformed ? 1 : 0); ++i) response->add_hit(i % 2 == 1);
    if (request->level() != pb::QUERY_LEVEL_INTERSECT) {
      for (int i = 0; i < n; ++i) {
        response->add_distance(i);
        for (double v : {double(i), 0.0, 0.0}) response->add_point_a(v);
        for (double v : {0.0, double(i), 0.0}) response->add_point_b(v);
        for (double v : {0.0, 0.0, 1.0}) response->add_normal(v);
      }
    }
    if (n > 1) response->add_not_converged(1);
    return grpc::Status::OK;
  }

  grpc::Status QueryPairs(grpc::ServerContext*, const pb::QueryPairsRequest* request,
                          pb::QueryPairsResponse* response) override {
    pairs_calls.fetch_add(1);
    last_pairs_request = *request;
    if (request->pairs_size() == 0) {
      // An INVALID_ARGUMENT as the real server sends it: a google.rpc.Status
      // with one BadRequest in grpc-status-details-bin.
      google::rpc::BadRequest bad;
      auto* v = bad.add_field_violations();
      v->set_field("pairs[3].b.capsule.radius");
      v->set_description("must be >= 0");
      v = bad.add_field_violations();
      v->set_field("level");
      v->set_description("must be set");
      google::rpc::Status rich;
      rich.set_code(grpc::StatusCode::INVALID_ARGUMENT);
      rich.set_message("2 invalid fields");
      rich.add_details()->PackFrom(bad);
      return {grpc::StatusCode::INVALID_ARGUMENT, "2 invalid fields", rich.SerializeAsString()};
    }
    for (int i = 0; i < request->pairs_size(); ++i) {
      pb::PairResult* r = response->add_results();
      r->set_hit(true);
      r->set_distance(-0.5);
      r->mutable_normal()->set_y(1);
      if (i == 0) r->set_status(pb::RESULT_STATUS_NOT_CONVERGED);
    }
    return grpc::Status::OK;
  }

  grpc::Status GetServerInfo(grpc::ServerContext*, const pb::GetServerInfoRequest*,
                             pb::ServerInfo* response) override {
    response->set_version("fake");
    response->set_max_items_per_request(7);
    response->set_items_served(12345678901);
    return grpc::Status::OK;
  }
};

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    grpc::EnableDefaultHealthCheckService(true);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_GT(port_, 0);
  }
  void TearDown() override { server_->Shutdown(); }

  Client MakeClient(ClientOptions options = {}) {
    options.deadline = absl::Seconds(20);
    absl::StatusOr<Client> client = Client::Create("127.0.0.1:" + std::to_string(port_), options);
    EXPECT_TRUE(client.ok()) << client.status();
    return *std::move(client);
  }

  // Two spheres per side, packed.
  static constexpr double kSpheres[] = {0, 0, 0, 1, 5, 0, 0, 1};
  // The packed call most tests make: kSpheres against kSpheres.
  static absl::StatusOr<std::vector<PairResult>> QuerySpheres(Client& client,
                                                              QueryLevel level = QueryLevel::kContact) {
    return client.QueryPairsPacked(level, ShapeKind::kSphere, kSpheres, ShapeKind::kSphere, kSpheres);
  }

  FakeService service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

TEST_F(ClientTest, RetriesUnavailableUntilSuccess) {
  service_.unavailable_first = 2;
  Client client = MakeClient();
  auto r = QuerySpheres(client);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(service_.packed_calls, 3);
}

TEST_F(ClientTest, RetriesServerSideCancelled) {
  service_.cancelled_first = 1;
  service_.unavailable_first = 2;
  Client client = MakeClient();
  auto r = QuerySpheres(client);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(service_.packed_calls, 3);
}

TEST_F(ClientTest, GivesUpAfterMaxAttempts) {
  service_.unavailable_first = 1000;
  Client client = MakeClient();
  auto r = QuerySpheres(client);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(service_.packed_calls, 5);
}

TEST_F(ClientTest, MaxAttemptsOneDisablesRetries) {
  service_.unavailable_first = 1;
  Client client = MakeClient({.max_attempts = 1});
  auto r = QuerySpheres(client);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(service_.packed_calls, 1);
}

TEST_F(ClientTest, InvalidArgumentIsNotRetriedAndCarriesFieldViolations) {
  Client client = MakeClient();
  auto r = client.QueryPairs(QueryLevel::kContact, {});
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(service_.pairs_calls, 1);
  EXPECT_EQ(r.status().message(), "2 invalid fields");
  EXPECT_THAT(FieldViolations(r.status()), ElementsAre(Violation{"pairs[3].b.capsule.radius", "must be >= 0"},
                                                       Violation{"level", "must be set"}));
  EXPECT_EQ(
      DescribeStatus(r.status()),
      "INVALID_ARGUMENT: 2 invalid fields\n  pairs[3].b.capsule.radius: must be >= 0\n  level: must be set");
}

TEST_F(ClientTest, StatusWithoutDetailsHasNoViolations) {
  EXPECT_TRUE(FieldViolations(absl::UnavailableError("down")).empty());
  EXPECT_EQ(DescribeStatus(absl::UnavailableError("down")), "UNAVAILABLE: down");
  EXPECT_EQ(DescribeStatus(absl::OkStatus()), "OK");
}

TEST_F(ClientTest, PackedResultsKeepOrderLevelAndStatus) {
  Client client = MakeClient();
  auto contact = QuerySpheres(client);
  ASSERT_TRUE(contact.ok()) << contact.status();
  ASSERT_EQ(contact->size(), 2u);
  EXPECT_EQ((*contact)[0], (PairResult{QueryStatus::kOk, false, 0.0, {0, 0, 0}, {0, 0, 0}, {0, 0, 1}}));
  EXPECT_EQ((*contact)[1],
            (PairResult{QueryStatus::kNotConverged, true, 1.0, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));

  auto intersect = QuerySpheres(client, QueryLevel::kIntersect);
  ASSERT_TRUE(intersect.ok()) << intersect.status();
  EXPECT_EQ((*intersect)[1], (PairResult{QueryStatus::kNotConverged, true, 0.0, {}, {}, {}}));
}

TEST_F(ClientTest, MalformedPackedResponseIsInternal) {
  service_.malformed = true;
  Client client = MakeClient();
  auto r = QuerySpheres(client);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal);
}

TEST_F(ClientTest, HullHasNoPackedForm) {
  Client client = MakeClient();
  auto r = client.QueryPairsPacked(QueryLevel::kContact, ShapeKind::kConvexHull, kSpheres, ShapeKind::kSphere,
                                   kSpheres);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(service_.packed_calls, 0);
}

TEST_F(ClientTest, ReadableSendsEveryPairInOrder) {
  Client client = MakeClient();
  const std::vector<Vec3> hull = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<ShapePair> pairs = {
      {Sphere{{1, 2, 3}, 0.5}, Capsule{{0, 0, 0}, {0, 0, 1}, 0.25}},
      {ConvexHull{hull}, Halfspace{{0, 0, 1}, 2}},
  };
  auto r = client.QueryPairs(QueryLevel::kDistance, pairs);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].status, QueryStatus::kNotConverged);
  EXPECT_EQ((*r)[1], (PairResult{QueryStatus::kOk, true, -0.5, {}, {}, {0, 1, 0}}));
  const pb::QueryPairsRequest& sent = service_.last_pairs_request;
  EXPECT_EQ(sent.level(), pb::QUERY_LEVEL_DISTANCE);
  ASSERT_EQ(sent.pairs_size(), 2);
  EXPECT_EQ(sent.pairs(0).a().sphere().center().z(), 3);
  EXPECT_EQ(sent.pairs(0).b().capsule().radius(), 0.25);
  EXPECT_EQ(sent.pairs(1).a().convex_hull().vertices_size(), 3);
  EXPECT_EQ(sent.pairs(1).b().halfspace().offset(), 2);
}

TEST_F(ClientTest, HealthFollowsTheServingStatus) {
  Client client = MakeClient();
  const absl::StatusOr<bool> serving = client.Health();
  ASSERT_TRUE(serving.ok()) << serving.status();
  EXPECT_TRUE(*serving);
  server_->GetHealthCheckService()->SetServingStatus(false);
  const absl::StatusOr<bool> draining = client.Health();
  ASSERT_TRUE(draining.ok()) << draining.status();
  EXPECT_FALSE(*draining);
}

TEST_F(ClientTest, ServerInfoCarriesEveryField) {
  Client client = MakeClient();
  auto info = client.GetServerInfo();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->version, "fake");
  EXPECT_EQ(info->max_items_per_request, 7);
  EXPECT_EQ(info->items_served, 12345678901);
}

TEST(ClientCreateTest, RejectsBadOptionsAndExpandsAddressLists) {
  EXPECT_EQ(Client::Create("").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Client::Create("127.0.0.1:1", {.max_attempts = 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Client::Create("127.0.0.1:1,127.0.0.1:2")->target(), "ipv4:127.0.0.1:1,127.0.0.1:2");
  EXPECT_EQ(Client::Create("dns:///localhost:1")->target(), "dns:///localhost:1");
}

TEST(ClientCreateTest, UnreachableServerIsAnError) {
  // Port 1 on loopback: nothing listens there in a test environment.
  absl::StatusOr<Client> client = Client::Create("127.0.0.1:1", {.deadline = absl::Seconds(2)});
  ASSERT_TRUE(client.ok());
  EXPECT_FALSE(client->Health(absl::Milliseconds(500)).ok());
}

TEST(PackedEncodingTest, AppendPackedWritesStrideDoublesInProtoOrder) {
  const std::vector<Vec3> hull = {{0, 0, 0}};
  const Quat q{0.5, 0.5, 0.5, 0.5};
  const Shape shapes[] = {Point{{1, 2, 3}},
                          Segment{{1, 2, 3}, {4, 5, 6}},
                          Sphere{{1, 2, 3}, 4},
                          Capsule{{1, 2, 3}, {4, 5, 6}, 7},
                          Aabb{{1, 2, 3}, {4, 5, 6}},
                          Obb::FromQuat({1, 2, 3}, q, {4, 5, 6}),
                          Triangle{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
                          ConvexHull{hull},
                          Halfspace{{0, 0, 1}, 4}};
  for (const Shape& s : shapes) {
    std::vector<double> out;
    const bool packed = AppendPacked(s, out);
    EXPECT_EQ(packed, KindOf(s) != ShapeKind::kConvexHull) << ShapeKindName(KindOf(s));
    EXPECT_EQ(out.size(), static_cast<std::size_t>(PackedStride(KindOf(s)))) << ShapeKindName(KindOf(s));
  }
  std::vector<double> capsule;
  AppendPacked(shapes[3], capsule);
  EXPECT_THAT(capsule, ElementsAre(1, 2, 3, 4, 5, 6, 7));
  std::vector<double> obb;
  AppendPacked(shapes[5], obb);
  ASSERT_EQ(obb.size(), 10u);
  // The quaternion survives the trip through the rotation matrix (up to sign).
  const double sign = obb[3] < 0 ? -1 : 1;
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(sign * obb[3 + i], 0.5, 1e-15);
  EXPECT_THAT(std::vector<double>(obb.begin() + 7, obb.end()), ElementsAre(4, 5, 6));
}

}  // namespace
}  // namespace collide
