// The plaintext-beyond-loopback guard: which hosts are loopback, --insecure,
// and the binary's refusal to start with a clear message.
#include "tests/security/security_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::security_testing;  // NOLINT: the helpers of security_test_util.h

TEST(PlaintextGuardTest, LoopbackHosts) {
  for (const char* host : {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"}) {
    EXPECT_TRUE(IsLoopbackHost(host)) << host;
  }
  for (const char* host : {"0.0.0.0", "::", "", "10.0.0.1", "128.0.0.1", "example.com", "::ffff:127.0.0.1"}) {
    EXPECT_FALSE(IsLoopbackHost(host)) << host;
  }
}

TEST(PlaintextGuardTest, PlaintextBeyondLoopbackNeedsInsecureExplicitly) {
  EXPECT_TRUE(CheckPlaintextAllowed("127.0.0.1", {}, absl::nullopt).ok());
  EXPECT_TRUE(CheckPlaintextAllowed("0.0.0.0", {}, true).ok());
  EXPECT_TRUE(CheckPlaintextAllowed("0.0.0.0", {"cert", "key", ""}, absl::nullopt).ok());
  const absl::Status refused = CheckPlaintextAllowed("0.0.0.0", {}, absl::nullopt);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.message().find("--insecure=true"), std::string::npos) << refused;
  EXPECT_EQ(CheckPlaintextAllowed("127.0.0.1", {}, false).code(), absl::StatusCode::kFailedPrecondition);
  // Server::Start applies it before binding anything.
  Options options;
  options.host = "0.0.0.0";
  options.port = 0;
  EXPECT_EQ(Server::Start(options).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(PlaintextGuardTest, BinaryRefusesToStartWithAClearMessage) {
  char log[] = "/tmp/collide-guard-XXXXXX";
  close(mkstemp(log));
  const int code = RunShell(std::string("env -u COLLIDE_INSECURE ") + COLLIDE_SERVER_BIN +
                            " --host=0.0.0.0 --port=0 2>" + log);
  EXPECT_EQ(code, 1);
  EXPECT_NE(ReadAll(log).find("refusing to serve plaintext on non-loopback host \"0.0.0.0\""),
            std::string::npos)
      << ReadAll(log);
  unlink(log);
}

}  // namespace
}  // namespace collide::server
