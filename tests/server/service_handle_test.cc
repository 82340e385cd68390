// HandleRequest and HandleQueryPairsBytes, the service's request handling
// without gRPC: the same answers and errors as the served calls, on every
// path of the readable fast path.
#include "tests/server/service_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::testing;  // NOLINT: the helpers of service_test_util.h

// HandleRequest is the service's whole request handling without gRPC (the
// request fuzzer calls it): same bytes as the served response, same errors.
TEST(HandleRequestTest, AnswersExactlyAsTheServedCall) {
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest request = RandomPairs(QueryLevel::kContact, 2, 5, expected);
  BatchRunner runner(2);
  const auto never = [] { return false; };
  v1::QueryPairsResponse direct;
  std::size_t items = 0;
  const grpc::Status status =
      HandleRequest(request, &direct, ServiceConfig{}, runner, CallControl{never}, items);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(items, expected.size());
  TestServer t;
  v1::QueryPairsResponse served;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, request, &served).ok());
  EXPECT_EQ(direct.SerializeAsString(), served.SerializeAsString());

  v1::QueryPairsRequest bad = request;
  bad.set_level(v1::QUERY_LEVEL_UNSPECIFIED);
  v1::QueryPairsResponse unused;
  const grpc::Status invalid =
      HandleRequest(bad, &unused, ServiceConfig{}, runner, CallControl{never}, items);
  EXPECT_EQ(invalid.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(BadRequestFields(invalid), ElementsAre("level"));

  const auto always = [] { return true; };
  EXPECT_EQ(HandleRequest(request, &unused, ServiceConfig{}, runner, CallControl{always}, items).error_code(),
            grpc::StatusCode::CANCELLED);
  EXPECT_EQ(
      HandleRequest(request, &unused, ServiceConfig{}, runner,
                    CallControl{never, std::chrono::system_clock::now() - std::chrono::seconds(1)}, items)
          .error_code(),
      grpc::StatusCode::DEADLINE_EXCEEDED);
}

// The served QueryPairs reads the request's bytes (HandleQueryPairsBytes):
// whichever path a request takes there (the wire fast path, or protobuf for
// everything it declines), the answer must be HandleRequest's on the parsed
// request, byte for byte.
void ExpectSameAnswer(const v1::QueryPairsRequest& request, const ServiceConfig& config,
                      const std::string& what) {
  BatchRunner runner(2);
  const auto never = [] { return false; };
  v1::QueryPairsResponse typed;
  std::size_t typed_items = 0;
  const grpc::Status expected =
      HandleRequest(request, &typed, config, runner, CallControl{never}, typed_items);
  const std::string bytes = request.SerializeAsString();
  std::string response;
  std::size_t items = 0;
  const grpc::Status actual =
      HandleQueryPairsBytes({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, response,
                            config, runner, CallControl{never}, items);
  EXPECT_EQ(actual.error_code(), expected.error_code()) << what;
  EXPECT_EQ(actual.error_message(), expected.error_message()) << what;
  EXPECT_EQ(actual.error_details(), expected.error_details()) << what;
  if (expected.ok()) {
    EXPECT_EQ(items, typed_items) << what;
    EXPECT_EQ(response, typed.SerializeAsString()) << what;
  }
}

TEST(HandleQueryPairsBytesTest, AnswersAsHandleRequestOnEveryPath) {
  for (const QueryLevel level : kAllLevels) {
    std::vector<PairResult> expected;
    const v1::QueryPairsRequest all_kinds = RandomPairs(level, 3, 21, expected);
    ExpectSameAnswer(all_kinds, ServiceConfig{}, "all kinds (hulls: protobuf path)");
    v1::QueryPairsRequest no_hulls;  // The fast path.
    no_hulls.set_level(all_kinds.level());
    for (const v1::ShapePair& pair : all_kinds.pairs()) {
      if (!pair.a().has_convex_hull() && !pair.b().has_convex_hull()) *no_hulls.add_pairs() = pair;
    }
    const std::string no_hulls_bytes = no_hulls.SerializeAsString();
    convert::PairBatch batch;
    EXPECT_TRUE(convert::DecodeQueryPairsWire(
        {reinterpret_cast<const std::uint8_t*>(no_hulls_bytes.data()), no_hulls_bytes.size()}, 65536, batch))
        << "takes the fast path";
    ExpectSameAnswer(no_hulls, ServiceConfig{}, "no hulls");
    ExpectSameAnswer(no_hulls, ServiceConfig{.max_items_per_request = 10}, "over the item limit");
    v1::QueryPairsRequest invalid = no_hulls;
    invalid.mutable_pairs(4)->mutable_b()->mutable_sphere()->set_radius(-1);
    invalid.mutable_pairs(7)->mutable_a()->mutable_point()->mutable_position()->set_z(kNaN);
    ExpectSameAnswer(invalid, ServiceConfig{}, "invalid shapes");
    v1::QueryPairsRequest unsupported = no_hulls;
    unsupported.mutable_pairs(2)->mutable_a()->mutable_halfspace()->mutable_normal()->set_x(1);
    unsupported.mutable_pairs(2)->mutable_b()->mutable_halfspace()->mutable_normal()->set_y(1);
    ExpectSameAnswer(unsupported, ServiceConfig{}, "halfspace vs halfspace");
    v1::QueryPairsRequest no_level = no_hulls;
    no_level.clear_level();
    ExpectSameAnswer(no_level, ServiceConfig{}, "no level");
  }
  ExpectSameAnswer(v1::QueryPairsRequest{}, ServiceConfig{}, "empty request");
}

TEST(HandleQueryPairsBytesTest, FastPathStopsOnCancelAndDeadline) {
  std::vector<PairResult> expected;
  v1::QueryPairsRequest request = RandomPairs(QueryLevel::kContact, 1, 3, expected);
  request.mutable_pairs()->erase(
      std::remove_if(
          request.mutable_pairs()->begin(), request.mutable_pairs()->end(),
          [](const v1::ShapePair& p) { return p.a().has_convex_hull() || p.b().has_convex_hull(); }),
      request.mutable_pairs()->end());
  const std::string bytes = request.SerializeAsString();
  const std::span<const std::uint8_t> span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  BatchRunner runner(2);
  std::string response;
  std::size_t items = 0;
  const auto never = [] { return false; };
  const auto always = [] { return true; };
  EXPECT_EQ(
      HandleQueryPairsBytes(span, response, ServiceConfig{}, runner, CallControl{always}, items).error_code(),
      grpc::StatusCode::CANCELLED);
  EXPECT_EQ(HandleQueryPairsBytes(
                span, response, ServiceConfig{}, runner,
                CallControl{never, std::chrono::system_clock::now() - std::chrono::seconds(1)}, items)
                .error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
}

// Bytes that are no request message at all: every RPC answers
// INVALID_ARGUMENT naming the message type (UNIMPLEMENTED is reserved for
// unsupported shape pairs), and the server keeps serving.
TEST(HandleQueryPairsBytesTest, UnparsableBytesAreInvalidArgumentOverTheWireOnEveryRpc) {
  TestServer t;
  grpc::GenericStub generic(t.channel);
  const std::string garbage("\x12\xff\xff\xff\x0f\x01", 6);  // Field 2: a 4 GB length, then 1 byte.
  for (const std::string method :
       {"QueryPairs", "QueryPairsPacked", "CastRays", "CastRaysPacked", "GetServerInfo"}) {
    grpc::Slice slice(garbage);
    const grpc::ByteBuffer request(&slice, 1);
    grpc::ByteBuffer response;
    grpc::ClientContext context;
    std::promise<grpc::Status> done;
    generic.UnaryCall(&context, "/collide.v1.CollisionService/" + method, grpc::StubOptions(), &request,
                      &response, [&done](grpc::Status s) { done.set_value(std::move(s)); });
    const grpc::Status status = done.get_future().get();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method;
    const std::string type = method == "GetServerInfo" ? "GetServerInfoRequest" : method + "Request";
    EXPECT_EQ(status.error_message(),
              "the request is not a collide.v1." + type + ": its 6 bytes do not parse");
  }
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest good = RandomPairs(QueryLevel::kDistance, 1, 4, expected);
  v1::QueryPairsResponse served;
  grpc::ClientContext again;
  EXPECT_TRUE(t.stub->QueryPairs(&again, good, &served).ok());
  EXPECT_EQ(served.results_size(), static_cast<int>(expected.size()));
}

}  // namespace
}  // namespace collide::server
