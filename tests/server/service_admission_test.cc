// The CollisionService's limits and admission: items per request, message
// size, calls and items in flight (calls shed at once while admitted ones
// run, bursts that recover).
#include "tests/server/service_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::testing;  // NOLINT: the helpers of service_test_util.h

TEST(LimitsTest, TooManyItemsNamesTheLimit) {
  TestServer t(Options{.max_items_per_request = 8});
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());  // 9 pairs.
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("max_items_per_request is 8"));
  v1::CastRaysPackedRequest rays;
  for (int i = 0; i < 9 * convert::kPackedRayStride; ++i) rays.add_rays(1);
  rays.mutable_shapes()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  EXPECT_EQ(Call(t, &v1::CollisionService::Stub::CastRaysPacked, rays).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  v1::QueryPairsRequest eight = OnePairPerKind();
  eight.mutable_pairs()->RemoveLast();
  EXPECT_TRUE(Call(t, &v1::CollisionService::Stub::QueryPairs, eight).ok());
}

TEST(LimitsTest, MaxConcurrentCallsCountsOnlyCallsInFlight) {
  // One call at a time is always under a limit of 1: a call that finished,
  // OK or not, no longer counts.
  TestServer t(Options{.max_concurrent_calls = 1});
  v1::QueryPairsRequest bad = OnePairPerKind();
  bad.set_level(v1::QUERY_LEVEL_UNSPECIFIED);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(Call(t, &v1::CollisionService::Stub::QueryPairs, bad).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
    const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairs, OnePairPerKind());
    EXPECT_TRUE(status.ok()) << status.error_message();
  }
  EXPECT_FALSE(Server::Start(Options{.port = 0, .max_concurrent_calls = -1}).ok());
}

// Holds every multi-chunk call on its call thread (TestHooks::before_posted_call)
// until Open(); counts the calls it held.
class Gate {
 public:
  std::function<void(grpc::CallbackServerContext&)> Hook() {
    return [this](grpc::CallbackServerContext&) {
      std::unique_lock lock(mu_);
      ++entered_;
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
    };
  }
  // Waits (at most 60 s) until `n` calls reached the gate.
  bool WaitEntered(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(60), [&] { return entered_ >= n; });
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0;
  bool open_ = false;
};

// Results of a readable response against the core's, bit for bit.
void ExpectMatchesCore(const std::vector<PairResult>& expected, const v1::QueryPairsResponse& response) {
  ASSERT_EQ(response.results_size(), static_cast<int>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ExpectBitEqual(expected[i], convert::FromProto(response.results(static_cast<int>(i))),
                   "pair " + std::to_string(i));
  }
}

// A call that never finishes unless it is answered without running: every
// call sent while the gate holds the only admitted one. The deadline is only
// a bound on a failing test (it would end DEADLINE_EXCEEDED).
grpc::Status CallWhileHeld(TestServer& t, const v1::QueryPairsRequest& request) {
  return Call(t, &v1::CollisionService::Stub::QueryPairs, request, std::chrono::seconds(30));
}

TEST(AdmissionTest, CallsPastMaxConcurrentCallsAreShedAtOnceWhileTheAdmittedOneRuns) {
  Gate gate;
  TestServer t(
      Options{.worker_threads = 1, .max_concurrent_calls = 1, .hooks = {.before_posted_call = gate.Hook()}});
  const absl::Cleanup open_on_exit = [&gate] { gate.Open(); };  // Before t stops, even on failure.
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest big = RandomPairs(QueryLevel::kContact, 5, 31, expected);
  ASSERT_GT(expected.size(), BatchRunner::kChunkItems);  // Posted to the call thread, so held.
  v1::QueryPairsResponse held_response;
  grpc::Status held_status;
  std::thread held([&] {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    held_status = t.stub->QueryPairs(&context, big, &held_response);
  });
  ASSERT_TRUE(gate.WaitEntered(1));
  // The held call counts: every other call, one chunk (run on the gRPC
  // thread) or many (posted), is refused without running.
  for (int i = 0; i < 6; ++i) {
    const grpc::Status status = CallWhileHeld(t, i % 2 ? big : OnePairPerKind());
    EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("--max_concurrent_calls"));
  }
  gate.Open();
  held.join();
  ASSERT_TRUE(held_status.ok()) << held_status.error_message();
  ExpectMatchesCore(expected, held_response);
  EXPECT_EQ(gate.entered(), 1) << "a shed call reached the call thread";
  // Recovered at once: the next calls are admitted and answered.
  v1::QueryPairsResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, big, &response).ok());
  ExpectMatchesCore(expected, response);
  ExpectStillServing(t);
  grpc::ClientContext info_context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&info_context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.requests_served(), 3);  // The held call and the two after it.
}

grpc::Status PackedWhileHeld(TestServer& t, const v1::QueryPairsPackedRequest& request) {
  return Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request, std::chrono::seconds(30));
}

// Typed requests count their items at arrival (the raw readable QueryPairs is
// charged an estimate from its size: its items are known once decoded).
TEST(AdmissionTest, CallsPastMaxItemsInFlightAreShedButSmallerOnesFit) {
  Gate gate;
  constexpr int kBig = 300;  // More than one chunk: posted, so held.
  const v1::QueryPairsPackedRequest big = ObbPairs(kBig, 32);
  // Room for the held call and 9 more items, not for a second big call.
  TestServer t(Options{.worker_threads = 1,
                       .max_items_per_request = kBig,
                       .max_items_in_flight = kBig + 9,
                       .hooks = {.before_posted_call = gate.Hook()}});
  const absl::Cleanup open_on_exit = [&gate] { gate.Open(); };
  grpc::Status held_status;
  std::thread held([&] {
    v1::QueryPairsPackedResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
    held_status = t.stub->QueryPairsPacked(&context, big, &response);
  });
  ASSERT_TRUE(gate.WaitEntered(1));
  const grpc::Status shed = PackedWhileHeld(t, big);
  EXPECT_EQ(shed.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << shed.error_message();
  EXPECT_THAT(shed.error_message(), HasSubstr("--max_items_in_flight"));
  EXPECT_EQ(PackedWhileHeld(t, ObbPairs(10, 34)).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  // 9 pairs fit beside the held call (and run on the gRPC thread).
  const grpc::Status small = PackedWhileHeld(t, ObbPairs(9, 35));
  EXPECT_TRUE(small.ok()) << small.error_message();
  gate.Open();
  held.join();
  EXPECT_TRUE(held_status.ok()) << held_status.error_message();
  EXPECT_TRUE(PackedWhileHeld(t, big).ok());
  // A lone call must always fit.
  EXPECT_FALSE(
      Server::Start(Options{.port = 0, .max_items_per_request = 100, .max_items_in_flight = 99}).ok());
}

// Many clients at once against a limit of 2 calls: each answer is either OK
// and exactly the core's results, or RESOURCE_EXHAUSTED; then a call is
// answered at once. (Whether a given call is shed depends on timing; the
// held-call tests above make shedding itself deterministic.)
TEST(AdmissionTest, BurstGetsOnlyCorrectOkOrResourceExhaustedAndRecovers) {
  TestServer t(Options{.worker_threads = 1, .max_concurrent_calls = 2});
  std::vector<PairResult> expected;
  const v1::QueryPairsRequest big = RandomPairs(QueryLevel::kContact, 10, 33, expected);
  constexpr int kClients = 12;
  constexpr int kCallsEach = 4;
  std::atomic<int> ok{0}, shed{0}, other{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&] {
      for (int i = 0; i < kCallsEach; ++i) {
        v1::QueryPairsResponse response;
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(120));
        const grpc::Status status = t.stub->QueryPairs(&context, big, &response);
        if (status.ok()) {
          ++ok;
          ExpectMatchesCore(expected, response);
        } else if (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
          ++shed;
        } else {
          ++other;
          ADD_FAILURE() << status.error_code() << " " << status.error_message();
        }
      }
    });
  }
  for (std::thread& c : clients) c.join();
  std::printf("burst of %d calls: %d OK, %d RESOURCE_EXHAUSTED, %d other\n", kClients * kCallsEach, ok.load(),
              shed.load(), other.load());
  EXPECT_EQ(ok + shed, kClients * kCallsEach);
  EXPECT_GT(ok, 0);
  v1::QueryPairsResponse response;
  grpc::ClientContext context;
  ASSERT_TRUE(t.stub->QueryPairs(&context, big, &response).ok());
  ExpectMatchesCore(expected, response);
}

TEST(LimitsTest, OversizedMessageIsRejectedByGrpc) {
  TestServer t(Options{.max_receive_message_bytes = 4096});
  v1::QueryPairsPackedRequest request;
  request.set_level(v1::QUERY_LEVEL_INTERSECT);
  request.mutable_a()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  request.mutable_b()->set_kind(v1::PACKED_SHAPE_KIND_POINT);
  for (int i = 0; i < 3 * 200; ++i) {  // 2 x 4800 bytes of doubles.
    request.mutable_a()->add_data(0);
    request.mutable_b()->add_data(1);
  }
  const grpc::Status status = Call(t, &v1::CollisionService::Stub::QueryPairsPacked, request);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  ExpectStillServing(t);
}

}  // namespace
}  // namespace collide::server
