// The real collide-server under an operator's and an attacker's abuse that
// no in-process test can stage: gRPC's own log lines flooded by bad
// headers, and the open-files limit exhausted by a flood of idle connections.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "collide/v1/collide.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/health_check_service_interface.h"
#include "support/h2_frames.h"
#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide {
namespace {

using Clock = std::chrono::steady_clock;
using testing::ServerProcess;
namespace h2 = testing::h2;

// The deadline of a call that shows a server still serves: it answers in
// milliseconds, but a new connection to a sanitizer build on a loaded
// machine may take seconds.
constexpr std::chrono::seconds kStillServing{30};

// A fresh channel (its own connection) making one GetServerInfo call.
grpc::StatusCode InfoCode(const std::string& target, std::chrono::milliseconds deadline) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  auto stub = v1::CollisionService::NewStub(
      grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + deadline);
  v1::ServerInfo info;
  return stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).error_code();
}

int CountOf(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// gRPC logs one error line per header it cannot parse ("Error parsing
// metadata: error=invalid value key=grpc-timeout value=soon", as it logs one
// per junk TLS handshake): routed through the rate-limited spdlog sink, a
// burst of 300 writes at most the bucket (10 lines) plus its refill, then one
// line counting the suppressed ones, and no line is lost from the count.
TEST(GrpcLogTest, TransportLogLinesAreRateLimitedWithASuppressedCount) {
  ServerProcess server(COLLIDE_SERVER_BIN);
  ASSERT_NE(server.port(), 0) << server.log();
  // One connection per bad header, each waited for with a PING: once it is
  // acknowledged the header has been parsed (its line logged or counted),
  // however slow the server (sanitizer builds).
  const auto bad_header = [&] {
    const int fd = h2::ConnectLoopback(server.port());
    if (fd < 0) return false;
    const std::string headers = h2::GrpcRequestHeaders("/collide.v1.CollisionService/GetServerInfo") +
                                h2::HpackLiteral("grpc-timeout", "soon");
    const bool answered =
        h2::SendAll(fd,
                    h2::Preface() + h2::Frame(h2::kHeaders, h2::kEndHeaders | h2::kEndStream, 1, headers)) &&
        h2::PingAcked(fd, testing::kHungAfter);
    close(fd);
    return answered;
  };
  constexpr int kCalls = 300;
  const auto start = Clock::now();
  for (int i = 0; i < kCalls; ++i) ASSERT_TRUE(bad_header());
  const double burst_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // The bucket refills; the next line is written after the count.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(bad_header());
  // Each of those calls sent no message: the server is still there.
  EXPECT_EQ(InfoCode(server.target(), kStillServing), grpc::StatusCode::OK);

  const std::string log = server.log();
  const int written = CountOf(log, "key=grpc-timeout value=soon");
  int suppressed = 0;
  const std::regex count(R"(grpc: suppressed (\d+) grpc log messages)");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), count); it != std::sregex_iterator(); ++it) {
    suppressed += std::stoi((*it)[1]);
  }
  EXPECT_LE(written, 10 + 1 + static_cast<int>(burst_seconds * 10) + 1)
      << "burst of " << burst_seconds << " s";
  EXPECT_GT(suppressed, 0);
  EXPECT_EQ(written + suppressed, kCalls + 1) << log.substr(0, 3000);
}

// Raises this process's soft open-files limit to its hard limit: the flood
// needs more descriptors than the server under test may have.
void RaiseOwnOpenFilesLimit() {
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  limit.rlim_cur = limit.rlim_max;
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &limit), 0);
}

// The descriptors process `pid` holds open.
int OpenFiles(pid_t pid) {
  std::error_code error;
  int n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    ++n;
  }
  return n;
}

// n idle TCP connections to 127.0.0.1:port (nothing sent), held open for at
// least 500 ms and until the server holds `server_files` descriptors (it has
// accepted that many: however slowly it accepts), then closed; false if it
// never did.
bool Flood(const ServerProcess& server, int n, int server_files) {
  std::vector<int> fds;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(server.port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int i = 0; i < n; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    EXPECT_GE(fd, 0) << "the test's own descriptors ran out at " << i;
    if (fd < 0) break;
    fds.push_back(fd);
    EXPECT_EQ(connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << i;
  }
  const auto start = Clock::now();
  const bool accepted = testing::WaitFor([&] { return OpenFiles(server.pid()) >= server_files; });
  std::this_thread::sleep_until(start + std::chrono::milliseconds(500));
  for (int fd : fds) close(fd);
  return accepted;
}

constexpr int kFloodConnections = 300;

// With the soft limit below the hard one, the server raises it at startup
// (and says so) and a flood past the old limit leaves it serving. Before, a
// flood of 1,100 connections against a soft limit of 1,024 made gRPC's accept
// fail with EMFILE and its listener never accepted again.
TEST(ListenerTest, OpenFilesLimitIsRaisedAndAFloodPastTheOldOneIsSurvived) {
  RaiseOwnOpenFilesLimit();
  ServerProcess server(COLLIDE_SERVER_BIN, {}, rlimit{128, 2048});
  ASSERT_NE(server.port(), 0) << server.log();
  EXPECT_THAT(server.log(), ::testing::HasSubstr("open_files=2048 (raised from 128)"));
  // Past the old limit of 128 descriptors.
  EXPECT_TRUE(Flood(server, kFloodConnections, 129)) << "the server accepted too few connections";
  EXPECT_EQ(InfoCode(server.target(), kStillServing), grpc::StatusCode::OK) << server.log();
  EXPECT_FALSE(server.Wait(std::chrono::milliseconds(0)).has_value()) << "the server exited\n"
                                                                      << server.log();
}

// With no room to raise the limit (soft = hard = 128), the same flood leaves
// gRPC's listener deaf. The server must then not stay alive unreachable:
// once connections have waited in its accept queue for
// --listener_check_timeout (2 s here) it logs why and exits 3, for a
// supervisor to restart it (or it serves again). The server's own timers
// decide when: the test waits for either outcome as long as a hung server
// takes (a loaded sanitizer machine may delay the watchdog's thread), and
// checks the wait the server reports is never shorter than the timeout.
TEST(ListenerTest, ADeafListenerEndsTheProcessWithinTheCheckTimeout) {
  RaiseOwnOpenFilesLimit();
  ServerProcess server(COLLIDE_SERVER_BIN, {"--listener_check_timeout=2s"}, rlimit{128, 128});
  ASSERT_NE(server.port(), 0) << server.log();
  EXPECT_THAT(server.log(), ::testing::HasSubstr("open_files=128,"));
  ASSERT_EQ(InfoCode(server.target(), kStillServing), grpc::StatusCode::OK) << server.log();
  // Every descriptor used: its accept failed (EMFILE).
  EXPECT_TRUE(Flood(server, kFloodConnections, 128)) << "the server accepted too few connections\n"
                                                     << server.log();
  const auto closed = Clock::now();
  const auto seconds_since_closed = [&] {
    return std::chrono::duration<double>(Clock::now() - closed).count();
  };
  std::optional<int> code;
  bool serving = false;
  // A probe of "serving again" takes its 2 s deadline while the server is
  // deaf; an exit during it is seen by the next look.
  testing::WaitFor([&] {
    code = server.Wait(std::chrono::milliseconds(0));
    serving = !code && InfoCode(server.target(), std::chrono::seconds(2)) == grpc::StatusCode::OK;
    return code || serving;
  });
  if (serving) {
    std::printf("serving again after %.1f s\n", seconds_since_closed());
    return;
  }
  ASSERT_TRUE(code.has_value()) << "alive and deaf " << seconds_since_closed() << " s after the flood ended\n"
                                << server.log();
  const std::string log = server.log();
  EXPECT_EQ(*code, 3) << log;
  // absl::FormatDuration: "2.046761971s" (a wait under a minute).
  std::smatch waited;
  const bool counted = std::regex_search(
      log, waited,
      std::regex(R"(no longer accepts connections: \d+ connection\(s\) have waited in its accept queue for )"
                 R"(([0-9.]+)s)"));
  if (!counted) {  // The other reason the watchdog gives.
    EXPECT_THAT(log, ::testing::HasSubstr("no longer accepts connections: the listening socket is gone"));
  } else {
    EXPECT_GE(std::stod(waited[1]), 2.0) << "exited before --listener_check_timeout\n" << log;
  }
  const std::size_t line = log.rfind("the listener");
  std::printf("exited %d after %.1f s: %s\n", *code, seconds_since_closed(),
              line == std::string::npos ? "" : log.substr(line).c_str());
}

}  // namespace
}  // namespace collide
