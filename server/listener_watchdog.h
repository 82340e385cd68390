// A self-check that the server's listening port still accepts connections,
// so that a deaf listener ends the process (a supervisor restarts it)
// instead of leaving it alive and unreachable, while a busy one is left to
// serve.
#ifndef COLLIDE_SERVER_LISTENER_WATCHDOG_H_
#define COLLIDE_SERVER_LISTENER_WATCHDOG_H_

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/periodic_task.h"

namespace collide::server {

// The summed accept-queue length of the listening sockets with these inodes
// in the text of /proc/net/tcp or /proc/net/tcp6 (a LISTEN socket's rx_queue
// column is its accept queue: connections the kernel completed that the
// process has not accepted); nullopt when none of them is listed.
std::optional<long> AcceptQueueOf(std::string_view proc_net_tcp, const std::vector<ino_t>& inodes);

// Once per `interval`, reads the accept queue of this process's listening
// sockets on `port` and opens a connection of its own to the port (closed at
// the next check), so that a listener that stopped accepting always has a
// connection waiting. gRPC accepts within milliseconds when it can.
//
// Connections waiting at every check for `timeout` mean one of two things,
// told apart by `listener_failed` (main: gRPC logged "Failed accept4", after
// which gRPC 1.51 never accepts on that socket again):
// - deaf: an accept failed (EMFILE, ENFILE, ENOMEM), so the listener is gone
//   for good: on_deaf(reason) runs on the watchdog's thread (main: log,
//   exit 3);
// - busy: no accept failed, so gRPC's threads are only late to accept (a
//   transport flood such as HTTP/2 rapid resets, long work): on_busy(reason)
//   runs, once per `timeout` while it lasts (main: a warning), and the server
//   keeps serving. A merely loaded server is never ended.
// A listening socket that is gone is deaf at once. The /proc files stay
// open, so a check needs no new descriptor even when the open-files limit
// is exhausted.
class ListenerWatchdog {
 public:
  static absl::StatusOr<std::unique_ptr<ListenerWatchdog>> Start(const std::string& host, int port,
                                                                 absl::Duration timeout,
                                                                 absl::Duration interval,
                                                                 std::function<bool()> listener_failed,
                                                                 std::function<void(std::string)> on_deaf,
                                                                 std::function<void(std::string)> on_busy);
  ~ListenerWatchdog();  // Stops the thread.

 private:
  ListenerWatchdog() = default;
  // One check; false once on_deaf has run.
  bool Check();
  // Closes the previous self-connection and opens a new one.
  void Reconnect();

  std::vector<ino_t> inodes_;
  std::vector<int> proc_fds_;  // /proc/self/net/tcp and tcp6.
  std::vector<char> address_;  // sockaddr of the self-connection (empty: none).
  int self_fd_ = -1;
  absl::Duration timeout_;
  std::function<bool()> listener_failed_;
  std::function<void(std::string)> on_deaf_;
  std::function<void(std::string)> on_busy_;
  // First check of the current run of non-empty queues, and the last busy
  // report in it (task_'s thread only).
  std::optional<absl::Time> waiting_since_;
  std::optional<absl::Time> busy_reported_;
  std::unique_ptr<PeriodicTask> task_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LISTENER_WATCHDOG_H_
