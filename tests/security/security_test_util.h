// What the security tests (tests/security/*_test.cc in security_test) share:
// a test PKI made by the openssl CLI at test time (never committed), an
// in-process server, TLS options for either side, and the SecurityTest
// fixture that needs the PKI.
#ifndef COLLIDE_TESTS_SECURITY_SECURITY_TEST_UTIL_H_
#define COLLIDE_TESTS_SECURITY_SECURITY_TEST_UTIL_H_

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

namespace collide::server::security_testing {

using Clock = std::chrono::steady_clock;

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline int RunShell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// A throwaway PKI in a temporary directory: ca signs server (SAN 127.0.0.1,
// localhost) and client; other_ca signs other_client.
class Pki {
 public:
  Pki() {
    char dir[] = "/tmp/collide-security-XXXXXX";
    dir_ = mkdtemp(dir);
    ok_ = MakeCa("ca") && MakeCa("other_ca") &&
          MakeLeaf("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost") &&
          MakeLeaf("client", "ca", "extendedKeyUsage=clientAuth") &&
          MakeLeaf("other_client", "other_ca", "extendedKeyUsage=clientAuth");
  }
  ~Pki() { std::filesystem::remove_all(dir_); }
  bool ok() const { return ok_; }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  // EC P-256 keys: quick to generate.
  bool MakeCa(const std::string& name) {
    return RunShell(
               "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj "
               "/CN=" +
               name + " -keyout " + Path(name + ".key") + " -out " + Path(name + ".pem") + " 2>/dev/null") ==
           0;
  }
  bool MakeLeaf(const std::string& name, const std::string& ca, const std::string& extension) {
    std::ofstream(Path(name + ".ext")) << extension << "\n";
    return RunShell("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" + name +
                    " -keyout " + Path(name + ".key") + " -out " + Path(name + ".csr") + " 2>/dev/null") ==
               0 &&
           RunShell("openssl x509 -req -days 1 -in " + Path(name + ".csr") + " -CA " + Path(ca + ".pem") +
                    " -CAkey " + Path(ca + ".key") + " -CAcreateserial -extfile " + Path(name + ".ext") +
                    " -out " + Path(name + ".pem") + " 2>/dev/null") == 0;
  }

  std::string dir_;
  bool ok_ = false;
};

inline Pki& SharedPki() {
  static Pki* pki = new Pki();
  return *pki;
}

inline std::unique_ptr<Server> StartServer(Options options) {
  options.host = "127.0.0.1";
  options.port = 0;
  options.worker_threads = 2;
  absl::StatusOr<std::unique_ptr<Server>> server = Server::Start(options);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? std::move(*server) : nullptr;
}

inline absl::StatusCode InfoCode(const std::string& target, ClientOptions options) {
  options.max_attempts = 1;
  options.deadline = absl::Seconds(5);
  absl::StatusOr<Client> client = Client::Create(target, options);
  if (!client.ok()) return client.status().code();
  return client->GetServerInfo().status().code();
}

inline TlsFiles ServerTls(bool mutual) {
  const Pki& pki = SharedPki();
  return {pki.Path("server.pem"), pki.Path("server.key"), mutual ? pki.Path("ca.pem") : ""};
}

inline ClientOptions ClientTls(const std::string& ca, const std::string& client = "") {
  ClientOptions o;
  o.tls = true;
  o.tls_ca_file = SharedPki().Path(ca + ".pem");
  if (!client.empty()) {
    o.tls_cert_file = SharedPki().Path(client + ".pem");
    o.tls_key_file = SharedPki().Path(client + ".key");
  }
  return o;
}

class SecurityTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(SharedPki().ok()) << "openssl could not make the test certificates"; }
};

}  // namespace collide::server::security_testing

#endif  // COLLIDE_TESTS_SECURITY_SECURITY_TEST_UTIL_H_
