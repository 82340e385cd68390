// TLS and mutual TLS of the collide server, with certificates made by the
// openssl CLI at test time: the right CA, another CA, plaintext, TLS below
// 1.2, client certificates, bad PEM files. Loopback only; every wait is
// bounded.
#include "tests/security/security_test_util.h"

namespace collide::server {
namespace {

using namespace ::collide::server::security_testing;  // NOLINT: the helpers of security_test_util.h

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
