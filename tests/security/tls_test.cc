// TLS and mutual TLS of the collide server, with certificates made by the
// openssl CLI at test time: the right CA, another CA, plaintext, TLS below
// 1.2, client certificates, bad PEM files. Loopback only; every wait is
// bounded.
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

TEST_F(SecurityTest, TlsWorksWithTheRightCaAndFailsWithAnotherOrPlaintext) {
  Options options;
  options.tls = ServerTls(false);
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  const std::string ip = server->address();
  const std::string name = "localhost:" + std::to_string(server->port());
  EXPECT_EQ(InfoCode(ip, ClientTls("ca")), absl::StatusCode::kOk);
  EXPECT_EQ(InfoCode(name, ClientTls("ca")), absl::StatusCode::kOk);
  EXPECT_EQ(InfoCode(ip, ClientTls("other_ca")), absl::StatusCode::kUnavailable);
  EXPECT_EQ(InfoCode(ip, ClientOptions{}), absl::StatusCode::kUnavailable);  // Plaintext client.
  ClientOptions wrong_name = ClientTls("ca");
  wrong_name.tls_server_name = "not-the-server.example";
  EXPECT_EQ(InfoCode(ip, wrong_name), absl::StatusCode::kUnavailable);
}

TEST_F(SecurityTest, TlsBelowVersion12IsRefused) {
  ASSERT_EQ(RunShell("command -v openssl >/dev/null"), 0)
      << "no openssl CLI (scripts/install-deps.sh installs it)";
  Options options;
  options.tls = ServerTls(false);
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  const std::string connect = " -alpn h2 -connect " + server->address() + " -CAfile " +
                              SharedPki().Path("ca.pem") + " -verify_return_error </dev/null >/dev/null 2>&1";
  EXPECT_EQ(RunShell("openssl s_client -tls1_2" + connect), 0);
  // SECLEVEL=0: OpenSSL 3 clients refuse TLS 1.1 themselves at the default
  // level; this makes the server the one that says no.
  EXPECT_NE(RunShell("openssl s_client -tls1_1 -cipher DEFAULT@SECLEVEL=0" + connect), 0);
  EXPECT_NE(RunShell("openssl s_client -tls1 -cipher DEFAULT@SECLEVEL=0" + connect), 0);
}

TEST_F(SecurityTest, MutualTlsRequiresAClientCertificateFromTheClientCa) {
  Options options;
  options.tls = ServerTls(true);
  std::unique_ptr<Server> server = StartServer(options);
  ASSERT_NE(server, nullptr);
  EXPECT_EQ(InfoCode(server->address(), ClientTls("ca", "client")), absl::StatusCode::kOk);
  EXPECT_EQ(InfoCode(server->address(), ClientTls("ca")), absl::StatusCode::kUnavailable);
  EXPECT_EQ(InfoCode(server->address(), ClientTls("ca", "other_client")), absl::StatusCode::kUnavailable);
}

TEST_F(SecurityTest, BadPemFilesFailStartupNamingTheFlag) {
  Options options;
  options.tls = {SharedPki().Path("missing.pem"), SharedPki().Path("server.key"), ""};
  options.port = 0;
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(options);
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.status().message().find("tls_cert_file"), std::string::npos) << server.status();
  options.tls = {SharedPki().Path("server.pem"), "", ""};
  EXPECT_FALSE(Server::Start(options).ok());
}

// Tokens over plaintext and over TLS: every method but grpc.health.v1.

}  // namespace
}  // namespace collide::server
