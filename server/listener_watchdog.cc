#include "server/listener_watchdog.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"

namespace collide::server {
namespace {

constexpr std::string_view kListenState = "0A";  // TCP_LISTEN in /proc/net/tcp.

// The columns of one /proc/net/tcp row: sl, local_address, rem_address, st,
// tx_queue:rx_queue, tr:tm->when, retrnsmt, uid, timeout, inode, ...
struct Row {
  unsigned port = 0;
  std::string_view state;
  long rx_queue = 0;
  ino_t inode = 0;
};

// Whole of `text` as a number in `base`.
template <typename T>
bool ParseNumber(std::string_view text, int base, T& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t at = 0;
  while ((at = line.find_first_not_of(' ', at)) != std::string_view::npos) {
    const std::size_t end = std::min(line.find(' ', at), line.size());
    fields.push_back(line.substr(at, end - at));
    at = end;
  }
  return fields;
}

std::optional<Row> ParseRow(std::string_view line) {
  const std::vector<std::string_view> f = Fields(line);
  if (f.size() < 10) return std::nullopt;
  Row row;
  const std::size_t port_colon = f[1].rfind(':');
  const std::size_t queue_colon = f[4].find(':');
  std::uint64_t inode = 0;
  if (port_colon == std::string_view::npos || queue_colon == std::string_view::npos ||
      !ParseNumber(f[1].substr(port_colon + 1), 16, row.port) ||
      !ParseNumber(f[4].substr(queue_colon + 1), 16, row.rx_queue) || !ParseNumber(f[9], 10, inode)) {
    return std::nullopt;
  }
  row.state = f[3];
  row.inode = static_cast<ino_t>(inode);
  return row;
}

std::vector<Row> ListenRows(std::string_view text) {
  std::vector<Row> rows;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (std::optional<Row> row = ParseRow(text.substr(at, end - at)); row && row->state == kListenState) {
      rows.push_back(*row);
    }
    at = end + 1;
  }
  return rows;
}

// The whole of a /proc file read from the start through an open descriptor.
std::string ReadFrom(int fd) {
  std::string text;
  if (lseek(fd, 0, SEEK_SET) != 0) return text;
  char buffer[16384];
  for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

// Inodes of this process's sockets, from /proc/self/fd's "socket:[N]" links.
std::set<ino_t> OwnSocketInodes() {
  std::set<ino_t> inodes;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return inodes;
  while (dirent* entry = readdir(dir)) {
    char target[64] = {};
    const std::string path = absl::StrCat("/proc/self/fd/", entry->d_name);
    if (readlink(path.c_str(), target, sizeof(target) - 1) <= 0) continue;
    std::string_view link(target);
    std::uint64_t inode = 0;
    if (link.starts_with("socket:[") && link.ends_with("]") &&
        ParseNumber(link.substr(8, link.size() - 9), 10, inode)) {
      inodes.insert(static_cast<ino_t>(inode));
    }
  }
  closedir(dir);
  return inodes;
}

// Where the self-connection goes: loopback for a wildcard host, else the
// host's literal address (none for a name).
std::vector<char> SelfAddress(const std::string& host, int port) {
  std::vector<char> address;
  sockaddr_in v4{};
  v4.sin_family = AF_INET;
  v4.sin_port = htons(static_cast<std::uint16_t>(port));
  sockaddr_in6 v6{};
  v6.sin6_family = AF_INET6;
  v6.sin6_port = htons(static_cast<std::uint16_t>(port));
  const std::string literal = host == "0.0.0.0" || host == "localhost" || host.empty() ? "127.0.0.1"
                              : host == "::" || host == "[::]"                         ? "::1"
                                                                                       : host;
  if (inet_pton(AF_INET, literal.c_str(), &v4.sin_addr) == 1) {
    address.assign(reinterpret_cast<char*>(&v4), reinterpret_cast<char*>(&v4) + sizeof(v4));
  } else if (inet_pton(AF_INET6, literal.c_str(), &v6.sin6_addr) == 1) {
    address.assign(reinterpret_cast<char*>(&v6), reinterpret_cast<char*>(&v6) + sizeof(v6));
  }
  return address;
}

}  // namespace

std::optional<long> AcceptQueueOf(std::string_view proc_net_tcp, const std::vector<ino_t>& inodes) {
  std::optional<long> total;
  for (const Row& row : ListenRows(proc_net_tcp)) {
    for (ino_t inode : inodes) {
      if (row.inode == inode) total = total.value_or(0) + row.rx_queue;
    }
  }
  return total;
}

absl::StatusOr<std::unique_ptr<ListenerWatchdog>> ListenerWatchdog::Start(
    const std::string& host, int port, absl::Duration timeout, absl::Duration interval,
    std::function<bool()> listener_failed, std::function<void(std::string)> on_deaf,
    std::function<void(std::string)> on_busy) {
  std::unique_ptr<ListenerWatchdog> w(new ListenerWatchdog());
  for (const char* path : {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
    if (const int fd = open(path, O_RDONLY | O_CLOEXEC); fd >= 0) w->proc_fds_.push_back(fd);
  }
  const std::set<ino_t> own = OwnSocketInodes();
  for (int fd : w->proc_fds_) {
    for (const Row& row : ListenRows(ReadFrom(fd))) {
      if (row.port == static_cast<unsigned>(port) && own.contains(row.inode)) w->inodes_.push_back(row.inode);
    }
  }
  if (w->inodes_.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no listening socket of this process on port ", port, " in /proc/self/net/tcp{,6}"));
  }
  w->address_ = SelfAddress(host, port);
  w->timeout_ = timeout;
  w->listener_failed_ = std::move(listener_failed);
  w->on_deaf_ = std::move(on_deaf);
  w->on_busy_ = std::move(on_busy);
  w->task_ = std::make_unique<PeriodicTask>(interval, [raw = w.get()] { return raw->Check(); });
  return w;
}

ListenerWatchdog::~ListenerWatchdog() {
  if (task_ != nullptr) task_->Stop();
  if (self_fd_ >= 0) close(self_fd_);
  for (int fd : proc_fds_) close(fd);
}

void ListenerWatchdog::Reconnect() {
  if (self_fd_ >= 0) close(self_fd_);
  self_fd_ = -1;
  if (address_.empty()) return;
  const auto* address = reinterpret_cast<const sockaddr*>(address_.data());
  // Without free descriptors there is no self-connection; clients' waiting
  // connections still show in the queue.
  self_fd_ = socket(address->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (self_fd_ >= 0) connect(self_fd_, address, static_cast<socklen_t>(address_.size()));
}

bool ListenerWatchdog::Check() {
  std::optional<long> queue;
  for (int fd : proc_fds_) {
    if (std::optional<long> q = AcceptQueueOf(ReadFrom(fd), inodes_)) queue = queue.value_or(0) + *q;
  }
  const absl::Time now = absl::Now();
  if (!queue.has_value()) {
    on_deaf_("the listening socket is gone");
    return false;
  }
  if (*queue == 0) {
    waiting_since_.reset();
    busy_reported_.reset();
  } else if (!waiting_since_) {
    waiting_since_ = now;
  } else if (now - *waiting_since_ >= timeout_) {
    const std::string waited = absl::StrCat(*queue, " connection(s) have waited in its accept queue for ",
                                            absl::FormatDuration(now - *waiting_since_));
    if (listener_failed_()) {
      on_deaf_(absl::StrCat(waited, " after an accept failed"));
      return false;
    }
    if (!busy_reported_ || now - *busy_reported_ >= timeout_) {
      busy_reported_ = now;
      on_busy_(waited);
    }
  }
  Reconnect();
  return true;
}

}  // namespace collide::server
