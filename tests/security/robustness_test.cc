// The real collide-server under an operator's and an attacker's abuse that
// no in-process test can stage: gRPC's own log lines flooded by refused
// calls, and the open-files limit exhausted by a flood of idle connections.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "collide/v1/collide.grpc.pb.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/health_check_service_interface.h"
#include "support/server_process.h"

namespace collide {
namespace {

using Clock = std::chrono::steady_clock;
using testing::ServerProcess;

// A fresh channel (its own connection) making one GetServerInfo call.
grpc::StatusCode InfoCode(const std::string& target, grpc_compression_algorithm compression,
                          std::chrono::milliseconds deadline) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetCompressionAlgorithm(compression);
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

// gRPC logs one error line per call it refuses for its compression
// ("Compression algorithm 'gzip' is disabled.", as it logs one per junk TLS
// handshake): routed through the rate-limited spdlog sink, a burst of 300
// writes at most the bucket (10 lines) plus its refill, then one line
// counting the suppressed ones, and no line is lost from the count.
TEST(GrpcLogTest, TransportLogLinesAreRateLimitedWithASuppressedCount) {
  ServerProcess server(COLLIDE_SERVER_BIN);
  ASSERT_NE(server.port(), 0) << server.log();
  grpc::ChannelArguments args;
  args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  auto stub = v1::CollisionService::NewStub(
      grpc::CreateCustomChannel(server.target(), grpc::InsecureChannelCredentials(), args));
  constexpr int kCalls = 300;
  const auto start = Clock::now();
  const auto refused = [&] {
    grpc::ClientContext context;
    v1::ServerInfo info;
    return stub->GetServerInfo(&context, v1::GetServerInfoRequest(), &info).error_code();
  };
  for (int i = 0; i < kCalls; ++i) ASSERT_EQ(refused(), grpc::StatusCode::UNIMPLEMENTED);
  const double burst_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // The bucket refills; the next line is written after the count.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(refused(), grpc::StatusCode::UNIMPLEMENTED);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));

  const std::string log = server.log();
  const int written = CountOf(log, "Compression algorithm 'gzip' is disabled.");
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

}  // namespace
}  // namespace collide
