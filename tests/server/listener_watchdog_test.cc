#include "server/listener_watchdog.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace collide::server
