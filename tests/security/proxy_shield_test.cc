// The proxy as the shield of the shared pool: the attacks gRPC 1.51 does not
// stop by itself (issue 15 item 7), sent to HAProxy running
// deploy/haproxy/haproxy.cfg in front of three collide-server replicas, on
// 127.0.0.1 only. During each attack a legitimate client keeps calling
// through the proxy (frames pushed to its worlds and read back, and pair
// queries without a world header), on connections it opened before the attack; every one of
// its calls must succeed, and no replica's resident memory may reach its
// container limit (512 MiB, docker/compose.yaml and deploy/k8s).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "collide/client.h"
#include "collide/query.h"
#include "collide/v1/collide.grpc.pb.h"
#include "collide/world.h"
#include "collide/world_client.h"
#include "grpcpp/grpcpp.h"
#include "support/case_count.h"
#include "support/h2_frames.h"
#include "support/proxy_process.h"
#include "support/random_shapes.h"
#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide {
namespace {

namespace h2 = testing::h2;
using Clock = std::chrono::steady_clock;
using testing::ProxyProcess;
using testing::ServerProcess;

constexpr std::int64_t kReplicaMemoryLimit = std::int64_t{512} << 20;
constexpr char kQueryPairsPath[] = "/collide.v1.CollisionService/QueryPairs";
constexpr int kLegitWorlds = 16;
std::string LegitWorld(int w) { return "legit-" + std::to_string(w); }

std::int64_t RssBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

double MiB(std::int64_t bytes) { return bytes / 1048576.0; }

// A raw connection to the proxy whose incoming frames a thread counts until
// the proxy closes it; the destructor shuts it down, joins the thread and
// closes it.
class CountedConnection {
 public:
  explicit CountedConnection(int port) : fd_(h2::ConnectLoopback(port)) {
    if (fd_ >= 0) reader_ = std::thread([this] { Count(); });
  }
  ~CountedConnection() {
    if (fd_ < 0) return;
    shutdown(fd_, SHUT_RDWR);
    reader_.join();
    close(fd_);
  }
  CountedConnection(const CountedConnection&) = delete;
  CountedConnection& operator=(const CountedConnection&) = delete;

  int fd() const { return fd_; }
  std::atomic<int> rst_stream{0}, goaway{0};
  std::atomic<bool> closed{false};

 private:
  void Count() {
    std::string buffer;
    char chunk[65536];
    for (ssize_t n; (n = recv(fd_, chunk, sizeof(chunk), 0)) > 0;) {
      buffer.append(chunk, n);
      while (buffer.size() >= 9) {
        const std::size_t length = (static_cast<unsigned char>(buffer[0]) << 16) |
                                   (static_cast<unsigned char>(buffer[1]) << 8) |
                                   static_cast<unsigned char>(buffer[2]);
        if (buffer.size() < 9 + length) break;
        const int type = static_cast<unsigned char>(buffer[3]);
        rst_stream += type == h2::kRstStream;
        goaway += type == h2::kGoAway;
        buffer.erase(0, 9 + length);
      }
    }
    closed = true;
  }

  int fd_;
  std::thread reader_;
};

class ProxyShieldTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 2,000 connections need more than the common soft limit of 1,024.
    rlimit files{};
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);

    std::vector<int> ports;
    for (int i = 0; i < 3; ++i) {
      replicas_.push_back(std::make_unique<ServerProcess>(COLLIDE_SERVER_BIN,
                                                          std::vector<std::string>{"--worker_threads=1"}));
      ASSERT_GT(replicas_.back()->port(), 0) << replicas_.back()->log();
      ports.push_back(replicas_.back()->port());
    }
    proxy_ = std::make_unique<ProxyProcess>(COLLIDE_HAPROXY_BIN, COLLIDE_PROXY_CONFIG, ports);
    ASSERT_GT(proxy_->port(), 0) << "haproxy did not start:\n" << proxy_->log();
    ASSERT_TRUE(proxy_->WaitForStates(
        [](const auto& s) {
          return s.size() == 3 && std::ranges::all_of(s, [](const auto& kv) { return kv.second == "UP"; });
        },
        std::chrono::seconds(20)))
        << testing::Describe(proxy_->ServerStates());
    StartLegitimateClient();
    ASSERT_TRUE(LegitCallsServed(20))
        << "no legitimate call got through before the attack: " << first_failure_;
  }

  void TearDown() override {
    stop_ = true;
    threads_.clear();  // join.
    std::printf(
        "legitimate calls: %d OK, %d failed, slowest %.0f ms; peak RSS of the replicas %.0f, %.0f, %.0f MiB, "
        "of haproxy %.0f MiB\n",
        ok_calls_.load(), failed_calls_.load(), slowest_ms_.load(), MiB(peak_rss_[0]), MiB(peak_rss_[1]),
        MiB(peak_rss_[2]), MiB(peak_proxy_rss_));
    EXPECT_EQ(failed_calls_, 0) << "the first: " << first_failure_;
    // In Release (the image's build) each replica stays within its
    // container's limit. Under a sanitizer the memory is the sanitizer's as
    // much as the product's (shadow memory, freed blocks held in ASan's
    // quarantine, fake stacks of detect_stack_use_after_return): a burst of
    // 20,000 rapid resets grew an ASan replica by 70 to 551 MB from run to
    // run where a Release one grows by 2 MB, so there only the calls are
    // checked.
    for (int i = 0; i < 3 && !testing::kSanitized; ++i) {
      EXPECT_LT(peak_rss_[i], kReplicaMemoryLimit) << "replica " << i << " passed its container's limit";
    }
  }

  // A legitimate call's deadline. Under ASan one call during a burst of
  // 20,000 rapid resets took 10.02 s on a 2-core machine running two tests at
  // once (ASan slows the single-worker replicas several times over); the
  // Release build, which the latency claim is about, keeps 10 s.
  static constexpr absl::Duration kLegitDeadline = absl::Seconds(testing::kSanitized ? 30 : 10);

  // Two connections opened before any attack: the world client, with 16
  // worlds created through the proxy (each call pushes a frame to one and
  // reads it back; no re-creation allowed: a legitimate world must never be
  // lost), and the client library for pair queries (answers checked).
  void StartLegitimateClient() {
    absl::StatusOr<WorldClient> worlds = WorldClient::Create(
        proxy_->target(), {.deadline = kLegitDeadline, .max_attempts = 1}, {.recreate_lost_worlds = false});
    ASSERT_TRUE(worlds.ok()) << worlds.status();
    for (int w = 0; w < kLegitWorlds; ++w) {
      WorldSpec spec{.id = LegitWorld(w)};
      spec.statics.push_back({.id = 1, .geometry = Shape{Aabb{{-10, -10, -1}, {10, 10, 0}}}});
      absl::StatusOr<WorldInfo> created = worlds->CreateWorld(spec);
      ASSERT_TRUE(created.ok()) << created.status();
    }
    absl::StatusOr<Client> client =
        Client::Create(proxy_->target(), {.deadline = kLegitDeadline, .max_attempts = 1});
    ASSERT_TRUE(client.ok()) << client.status();
    threads_.emplace_back([this, worlds = std::move(*worlds), client = std::move(*client)]() mutable {
      testing::ShapeFactory factory(31);
      std::vector<ShapePair> pairs;
      std::vector<PairResult> expected;
      for (int i = 0; i < 16; ++i) {
        // No rotations, so the shapes cross the wire bit for bit.
        pairs.push_back({factory.Make(ShapeKind::kCapsule), factory.Make(ShapeKind::kAabb)});
        expected.push_back(Contact(pairs.back().a, pairs.back().b));
      }
      for (int i = 0; !stop_; ++i) {
        const Clock::time_point start = Clock::now();
        std::string failure;
        if (i % 2 == 0) {
          const std::string id = LegitWorld(i / 2 % kLegitWorlds);
          const std::int64_t tick = i / 2 / kLegitWorlds + 1;
          BodyUpdate body{.id = 1, .pose = Pose{{0.01 * static_cast<double>(i), 0, 1}, Quat{}}};
          if (tick == 1) body.parts = {BodyPart{.id = 0, .shape = Sphere{{0, 0, 0}, 0.5}}};
          absl::StatusOr<std::int64_t> pushed = worlds.PushFrame(id, Frame{.tick = tick, .bodies = {body}});
          absl::StatusOr<WorldInfo> info = worlds.GetWorld(id);
          if (!pushed.ok()) failure = "world frame: " + pushed.status().ToString();
          if (failure.empty() && !info.ok()) failure = "world info: " + info.status().ToString();
          if (failure.empty() && info->latest_tick != tick) failure = "world info: a frame was lost";
        } else {
          absl::StatusOr<std::vector<PairResult>> r = client.QueryPairs(QueryLevel::kContact, pairs);
          if (!r.ok()) failure = "pair query: " + r.status().ToString();
          if (r.ok() && *r != expected) failure = "pair query: wrong answer";
        }
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        if (ms > slowest_ms_) slowest_ms_ = ms;
        if (failure.empty()) {
          ++ok_calls_;
        } else {
          std::lock_guard lock(mu_);
          if (failed_calls_++ == 0) first_failure_ = failure;
        }
      }
    });
    threads_.emplace_back([this] {
      while (!stop_) {
        for (int i = 0; i < 3; ++i) peak_rss_[i] = std::max(peak_rss_[i], RssBytes(replicas_[i]->pid()));
        peak_proxy_rss_ = std::max(peak_proxy_rss_, RssBytes(proxy_->pid()));
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
  }

  // Waits until `n` more legitimate calls succeeded.
  bool LegitCallsServed(int n) {
    const int target = ok_calls_ + n;
    return testing::WaitFor([&] { return ok_calls_ >= target; });
  }

  std::vector<std::unique_ptr<ServerProcess>> replicas_;
  std::unique_ptr<ProxyProcess> proxy_;
  std::vector<std::jthread> threads_;
  std::atomic<bool> stop_{false};
  std::atomic<int> ok_calls_{0}, failed_calls_{0};
  std::atomic<double> slowest_ms_{0};
  std::mutex mu_;
  std::string first_failure_;
  std::int64_t peak_rss_[3] = {0, 0, 0};
  std::int64_t peak_proxy_rss_ = 0;
};

// CVE-2023-44487: streams opened and reset at once, 20,000 on one connection
// (2,000 under a sanitizer). Each reset stream still costs a replica some
// work; under ASan that work is several times Release's, and 20,000 streams
// stalled a single-worker replica for up to 9 s on 2 loaded cores: longer
// than the proxy's health check allows (timeout check 2s, fall 2), so the
// replica was marked down and a legitimate world moved to another one
// (WORLD_NOT_FOUND). A tenth of the streams keeps the stall near Release's,
// which is what the shield is claimed for; Release sends all 20,000.
TEST_F(ProxyShieldTest, RapidResetBurst) {
  CountedConnection counts(proxy_->port());
  const int fd = counts.fd();
  ASSERT_GE(fd, 0);
  const std::string headers = h2::GrpcRequestHeaders(kQueryPairsPath);
  ASSERT_TRUE(h2::SendAll(fd, h2::Preface()));
  int sent = 0;
  constexpr int kStreams = testing::CaseCount(20000), kBatch = 500;
  bool open = true;
  while (open && sent < kStreams) {
    std::string batch;
    for (int i = 0; i < kBatch; ++i, ++sent) {
      const std::uint32_t stream = 2 * sent + 1;
      batch += h2::Frame(h2::kHeaders, h2::kEndHeaders, stream, headers) + h2::RstStream(stream, h2::kCancel);
    }
    open = h2::SendAll(fd, batch);
  }
  // The burst is over when the proxy has answered or dropped the connection.
  EXPECT_TRUE(LegitCallsServed(50)) << "legitimate calls stalled after the burst";
  std::printf(
      "rapid reset: %d streams opened and reset, connection %s by the proxy (%d RST_STREAM, %d GOAWAY "
      "back)\n",
      sent, counts.closed ? "closed" : "kept", counts.rst_stream.load(), counts.goaway.load());
}

// One header value of 16 MB (issue 15: a 48 MB one cost 38 s of a core in
// gRPC 1.51): the proxy must drop the connection long before the end.
TEST_F(ProxyShieldTest, SixteenMegabyteHeader) {
  const int fd = h2::ConnectLoopback(proxy_->port());
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(h2::SendAll(fd, h2::Preface()));
  constexpr std::size_t kValue = std::size_t{16} << 20, kChunk = 16384;
  std::string first = h2::GrpcRequestHeaders(kQueryPairsPath);
  first += '\0' + h2::HpackInteger(5, 7, 0) + "x-big" + h2::HpackInteger(kValue, 7, 0);
  const Clock::time_point start = Clock::now();
  bool open = h2::SendAll(fd, h2::Frame(h2::kHeaders, 0, 1, first));
  std::size_t sent = 0;
  const std::string chunk(kChunk, 'a');
  while (open && sent < kValue) {
    const bool last = sent + kChunk >= kValue;
    open = h2::SendAll(fd, h2::Frame(h2::kContinuation, last ? h2::kEndHeaders : 0, 1, chunk));
    if (open) sent += kChunk;
  }
  const bool closed = !open || h2::PeerClosed(fd, testing::kHungAfter);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  close(fd);
  std::printf("16 MB header: connection closed after %.1f MB of it were sent (%.0f ms)\n", sent / 1048576.0,
              ms);
  EXPECT_TRUE(closed) << "the proxy kept a connection sending a 16 MB header";
  EXPECT_LT(sent, kValue) << "the proxy read the whole 16 MB header";
  EXPECT_TRUE(LegitCallsServed(50));
}

// 5,000 streams on one connection from a client that never acknowledges the
// proxy's SETTINGS (gRPC 1.51 enforces its stream limit only after the
// acknowledgement; 5,000 streams held 563 MB of a replica). Each stream sends
// its headers and never its body, so it stays open.
TEST_F(ProxyShieldTest, FiveThousandStreamsWithoutSettingsAck) {
  CountedConnection counts(proxy_->port());
  const int fd = counts.fd();
  ASSERT_GE(fd, 0);
  const std::string headers = h2::GrpcRequestHeaders(kQueryPairsPath);
  ASSERT_TRUE(h2::SendAll(fd, h2::Preface()));  // our SETTINGS, never an ACK of the proxy's.
  constexpr int kStreams = 5000;
  int sent = 0;
  for (bool open = true; open && sent < kStreams; ++sent) {
    open = h2::SendAll(fd, h2::Frame(h2::kHeaders, h2::kEndHeaders, 2 * sent + 1, headers));
  }
  // The proxy answers every stream past its limit (refused) or ends the
  // connection; wait for either.
  const bool enforced = testing::WaitFor(
      [&] { return counts.closed || counts.goaway > 0 || counts.rst_stream >= kStreams - 100; });
  std::printf("5,000 streams: %d sent, %d refused (RST_STREAM), %d GOAWAY, connection %s\n", sent,
              counts.rst_stream.load(), counts.goaway.load(), counts.closed ? "closed" : "open");
  EXPECT_TRUE(enforced) << "the proxy let more than its 100 streams stay open on one connection";
  EXPECT_TRUE(LegitCallsServed(50));
}

// 2,000 connections from one address that send nothing: the proxy keeps at
// most 64 per address (ours included) and closes the rest at once. (The ones
// it keeps are closed after 60 s of silence, `timeout client`: HAProxy 2.6
// applies no shorter timeout to an HTTP/2 connection before its first
// request; not waited for here.)
TEST_F(ProxyShieldTest, TwoThousandIdleConnections) {
  constexpr int kConnections = 2000;
  constexpr int kPerClient = 64;  // haproxy.cfg: sc0_conn_cur gt 64.
  std::vector<int> fds;
  std::string refusal;
  for (int i = 0; i < kConnections; ++i) {
    // A connect can fail now and then while the proxy is closing hundreds of
    // them (CI saw 1,999 of 2,000 once): try again, and name the error.
    int fd = -1;
    for (int attempt = 0; attempt < 3 && fd < 0; ++attempt) {
      fd = h2::ConnectLoopback(proxy_->port());
      if (fd < 0) refusal = std::strerror(errno);
    }
    if (fd >= 0) fds.push_back(fd);
  }
  EXPECT_EQ(fds.size(), kConnections)
      << "the kernel refused connections (" << refusal << "): the test's own limit?";
  const auto still_open = [&] {
    int open = 0;
    for (int fd : fds) open += !h2::PeerClosed(fd, std::chrono::milliseconds(0));
    return open;
  };
  // Our legitimate connections count toward the 64: at least one (gRPC's
  // channels to one target with the same arguments share a connection, so
  // the world client and the pair client may hold one or two).
  const Clock::time_point start = Clock::now();
  EXPECT_TRUE(testing::WaitFor([&] { return still_open() <= kPerClient - 1; }))
      << still_open() << " of " << fds.size() << " idle connections kept";
  const double settled_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  const int kept = still_open();
  EXPECT_TRUE(LegitCallsServed(50));
  std::printf("2,000 idle connections: %zu connected, %d kept by the proxy, the rest closed within %.0f ms\n",
              fds.size(), kept, settled_ms);
  for (int fd : fds) close(fd);
  EXPECT_TRUE(LegitCallsServed(50));
}

}  // namespace
}  // namespace collide
