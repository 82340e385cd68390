// Protobuf's log lines under a flood of bad requests: the rate limiter
// admits bursts, then counts what it suppressed.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "collide/client.h"
#include "collide/v1/collide.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "server/logging.h"
#include "server/server.h"
#include "server/token_auth.h"
#include "server/transport_security.h"
#include "support/h2_frames.h"
#include "support/wait_for.h"
#include "tests/security/security_test_util.h"

namespace collide::server {
namespace {

using Clock = std::chrono::steady_clock;
using ::collide::server::security_testing::ClientTls;
using ::collide::server::security_testing::InfoCode;
using ::collide::server::security_testing::Pki;
using ::collide::server::security_testing::ReadAll;
using ::collide::server::security_testing::RunShell;
using ::collide::server::security_testing::SecurityTest;
using ::collide::server::security_testing::ServerTls;
using ::collide::server::security_testing::SharedPki;
using ::collide::server::security_testing::StartServer;

TEST(ProtobufLogTest, RateLimiterAdmitsBurstsThenCountsTheSuppressed) {
  LogRateLimiter limiter(3);
  const absl::Time t0 = absl::FromUnixSeconds(1000);
  std::int64_t suppressed = -1;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.Admit(t0, &suppressed));
    EXPECT_EQ(suppressed, 0);
  }
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(limiter.Admit(t0, &suppressed));
  EXPECT_FALSE(limiter.Admit(t0 + absl::Milliseconds(100), &suppressed));  // 0.3 of a line refilled.
  EXPECT_TRUE(limiter.Admit(t0 + absl::Milliseconds(400), &suppressed));
  EXPECT_EQ(suppressed, 6);
  EXPECT_TRUE(limiter.Admit(t0 + absl::Seconds(10), &suppressed));
  EXPECT_EQ(suppressed, 0);
}

}  // namespace
}  // namespace collide::server
