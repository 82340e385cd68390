#include "server/listener_watchdog.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace collide::server {
namespace {

// Rows as Linux prints them (net/ipv4/tcp_ipv4.c, get_tcp4_sock): for a
// LISTEN socket (st 0A) rx_queue is the accept queue's length.
constexpr char kProcNetTcp[] =
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    "   0: 0100007F:C350 00000000:0000 0A 00000000:00000007 00:00000000 00000000     0        0 4242 1 "
    "0000000000000000 100 0 0 10 0\n"
    "   1: 0100007F:C351 00000000:0000 0A 00000000:00000002 00:00000000 00000000     0        0 4343 1 "
    "0000000000000000 100 0 0 10 0\n"
    "   2: 0100007F:C350 0100007F:9C40 01 00000000:00000005 00:00000000 00000000     0        0 4444 1 "
    "0000000000000000 20 4 30 10 -1\n";

TEST(ListenerWatchdogTest, AcceptQueueIsTheRxQueueOfTheListeningSocketsNamed) {
  EXPECT_EQ(AcceptQueueOf(kProcNetTcp, {4242}), 7);
  EXPECT_EQ(AcceptQueueOf(kProcNetTcp, {4242, 4343}), 9);
  // An established connection's row (st 01) is no listener, whatever its queue.
  EXPECT_EQ(AcceptQueueOf(kProcNetTcp, {4444}), std::nullopt);
  EXPECT_EQ(AcceptQueueOf(kProcNetTcp, {99}), std::nullopt);
  EXPECT_EQ(AcceptQueueOf("", {4242}), std::nullopt);
}

// A listening socket of this process on a free loopback port that nothing
// accepts on: connections wait in its accept queue, as on a server whose
// threads are all busy or whose listener is gone.
struct UnacceptedListener {
  UnacceptedListener() {
    fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), length), 0);
    EXPECT_EQ(listen(fd, 16), 0);
    EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
    port = ntohs(address.sin_port);
  }
  ~UnacceptedListener() { close(fd); }
  int fd = -1;
  int port = 0;
};

// Connections left waiting past the timeout without a failed accept are a
// busy server: reported, never ended; once an accept has failed they are a
// deaf listener, and on_deaf runs within a check or two.
TEST(ListenerWatchdogTest, WaitingConnectionsEndTheServerOnlyAfterAFailedAccept) {
  UnacceptedListener listener;
  std::atomic<bool> accept_failed{false};
  std::atomic<int> deaf{0}, busy{0};
  std::mutex mu;
  std::vector<std::string> reasons;
  absl::StatusOr<std::unique_ptr<ListenerWatchdog>> watchdog = ListenerWatchdog::Start(
      "127.0.0.1", listener.port, absl::Milliseconds(200), absl::Milliseconds(25),
      [&] { return accept_failed.load(); },
      [&](std::string reason) {
        std::lock_guard lock(mu);
        reasons.push_back(reason);
        ++deaf;
      },
      [&](std::string reason) {
        std::lock_guard lock(mu);
        reasons.push_back(reason);
        ++busy;
      });
  ASSERT_TRUE(watchdog.ok()) << watchdog.status();
  // Ten timeouts of waiting: busy reports (about one per timeout), no exit.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(deaf.load(), 0);
  EXPECT_GE(busy.load(), 3);
  EXPECT_LE(busy.load(), 11);
  {
    std::lock_guard lock(mu);
    ASSERT_FALSE(reasons.empty());
    EXPECT_NE(reasons.front().find("connection(s) have waited in its accept queue for"), std::string::npos)
        << reasons.front();
  }
  accept_failed = true;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (deaf.load() == 0 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(deaf.load(), 1);  // Once: the check stops after on_deaf.
  std::lock_guard lock(mu);
  EXPECT_NE(reasons.back().find("after an accept failed"), std::string::npos) << reasons.back();
}

}  // namespace
}  // namespace collide::server
