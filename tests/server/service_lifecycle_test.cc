// The CollisionService's lifecycle: health while serving and draining,
// shutdown, deadlines and cancellation of calls in progress.
#include "tests/server/service_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::testing;  // NOLINT: the helpers of service_test_util.h

grpc::health::v1::HealthCheckResponse::ServingStatus Health(TestServer& t, const std::string& service,
                                                            grpc::StatusCode* code = nullptr) {
  auto health = grpc::health::v1::Health::NewStub(t.channel);
  grpc::health::v1::HealthCheckRequest request;
  request.set_service(service);
  grpc::health::v1::HealthCheckResponse response;
  grpc::ClientContext context;
  const grpc::Status status = health->Check(&context, request, &response);
  if (code != nullptr) *code = status.error_code();
  return response.status();
}

TEST(HealthTest, ServingThenNotServingWhileDraining) {
  using grpc::health::v1::HealthCheckResponse;
  TestServer t;
  EXPECT_EQ(Health(t, ""), HealthCheckResponse::SERVING);
  EXPECT_EQ(Health(t, kServiceName), HealthCheckResponse::SERVING);
  grpc::StatusCode code;
  Health(t, "no.such.Service", &code);
  EXPECT_EQ(code, grpc::StatusCode::NOT_FOUND);

  // A watcher sees the change that Shutdown makes first.
  auto health = grpc::health::v1::Health::NewStub(t.channel);
  grpc::ClientContext watch_context;
  grpc::health::v1::HealthCheckRequest watch_request;
  watch_request.set_service(kServiceName);
  auto watch = health->Watch(&watch_context, watch_request);
  HealthCheckResponse update;
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::SERVING);

  t.server->StartDraining();
  EXPECT_EQ(Health(t, ""), HealthCheckResponse::NOT_SERVING);
  EXPECT_EQ(Health(t, kServiceName), HealthCheckResponse::NOT_SERVING);
  ASSERT_TRUE(watch->Read(&update));
  EXPECT_EQ(update.status(), HealthCheckResponse::NOT_SERVING);
  // Draining still answers calls in flight and new ones until Shutdown.
  ExpectStillServing(t);
  watch_context.TryCancel();
  watch->Finish().IgnoreError();
  t.server->Shutdown();
  t.server->Wait();
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  v1::ServerInfo info;
  EXPECT_FALSE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
}

// 65536 OBB contact pairs outlast a short deadline.
v1::QueryPairsPackedRequest HugeObbBatch() { return ObbPairs(65536, 14); }

// Each huge call is held in the server for its whole deadline before its
// batch runs. The server's deadline is its time of reading the call plus the
// grpc-timeout sent, so no later than the hold's start plus kDeadline: past
// on any machine, and the batch's own deadline check must stop it, however
// fast the machine would run the 65,536 pairs. The deadline is long enough
// for the 10 MB request to reach the server (checked: `held`).
constexpr auto kDeadline = std::chrono::seconds(1);
TEST(DeadlineTest, HugeBatchPastItsDeadlineStopsAndServerKeepsServing) {
  std::atomic<int> held{0};
  TestServer t(
      Options{.worker_threads = 1, .hooks = {.before_posted_call = [&held](grpc::CallbackServerContext&) {
                                     ++held;
                                     // A sleep as a lower bound only; the margin covers
                                     // grpc-timeout's rounding up.
                                     std::this_thread::sleep_for(kDeadline + std::chrono::milliseconds(10));
                                   }}});
  const v1::QueryPairsPackedRequest request = HugeObbBatch();
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + kDeadline);
    v1::QueryPairsPackedResponse response;
    const grpc::Status status = t.stub->QueryPairsPacked(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  // The calls reached the server's batch path (the client alone would also
  // say DEADLINE_EXCEEDED); each returns only after its hold.
  EXPECT_TRUE(collide::testing::WaitFor([&held] { return held == 3; }));
  ExpectStillServing(t);
  grpc::ClientContext context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.items_served(), 9);  // Only the good request's pairs.
}

// The call is cancelled by the client once it reached the server's call
// thread, and its batch starts only when the server has seen the
// cancellation: the batch must stop at its first check, serving none of its
// pairs, and the server go on serving. A second multi-chunk call, queued
// behind it on the only call thread, runs once the first has ended.
TEST(DeadlineTest, CancelledCallStopsAndServerKeepsServing) {
  std::atomic<int> calls{0};
  std::atomic<bool> entered{false}, seen_cancelled{false};
  TestServer t(Options{.worker_threads = 1,
                       .hooks = {.before_posted_call = [&](grpc::CallbackServerContext& c) {
                         if (calls++ > 0) return;
                         entered = true;
                         seen_cancelled = collide::testing::WaitFor([&c] { return c.IsCancelled(); });
                       }}});
  grpc::ClientContext context;
  std::thread canceller([&] {
    collide::testing::WaitFor([&entered] { return entered.load(); });
    context.TryCancel();
  });
  v1::QueryPairsPackedResponse response;
  const grpc::Status status = t.stub->QueryPairsPacked(&context, HugeObbBatch(), &response);
  canceller.join();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::CANCELLED) << status.error_message();
  ASSERT_TRUE(entered);
  constexpr int kNext = 1000;  // Four chunks: a posted call.
  grpc::ClientContext next_context;
  const grpc::Status next = t.stub->QueryPairsPacked(&next_context, ObbPairs(kNext, 14), &response);
  EXPECT_TRUE(next.ok()) << next.error_message();
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(seen_cancelled) << "the server never saw the cancellation";
  grpc::ClientContext info_context;
  v1::ServerInfo info;
  ASSERT_TRUE(t.stub->GetServerInfo(&info_context, v1::GetServerInfoRequest(), &info).ok());
  EXPECT_EQ(info.items_served(), kNext) << "the cancelled batch was served";
}

}  // namespace
}  // namespace collide::server
