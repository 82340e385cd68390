#include "server/http_endpoint.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace collide::server {
namespace {

constexpr std::size_t kMaxHead = 8192;

void SetTimeouts(int fd) {
  const timeval two_seconds{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &two_seconds, sizeof(two_seconds));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &two_seconds, sizeof(two_seconds));
}

void SendAll(int fd, const std::string& bytes) {
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return;
    sent += static_cast<std::size_t>(n);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpEndpoint>> HttpEndpoint::Start(const std::string& host, int port,
                                                                  HttpHandler handler) {
  if (port < 0 || port > 65535)
    return absl::InvalidArgumentError(absl::StrCat("HTTP port ", port, " is not in [0, 65535]"));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("HTTP endpoint: cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  const int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, 0);
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  const bool bound = fd >= 0 && bind(fd, found->ai_addr, found->ai_addrlen) == 0 && listen(fd, 16) == 0;
  freeaddrinfo(found);
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (!bound || getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    return absl::UnavailableError(
        absl::StrCat("HTTP endpoint: cannot listen on ", host, ":", port, ": ", why));
  }
  const int bound_port = ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                                          : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return std::unique_ptr<HttpEndpoint>(new HttpEndpoint(fd, bound_port, std::move(handler)));
}

HttpEndpoint::HttpEndpoint(int fd, int port, HttpHandler handler)
    : fd_(fd), port_(port), handler_(std::move(handler)), thread_([this] { Serve(); }) {}

HttpEndpoint::~HttpEndpoint() {
  stop_ = true;
  thread_.join();
  close(fd_);
}

void HttpEndpoint::Serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;  // wakes to check stop_.
    const int connection = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    SetTimeouts(connection);
    Answer(connection);
    close(connection);
  }
}

void HttpEndpoint::Answer(int connection) const {
  std::string head;
  char buffer[1024];
  while (head.find("\r\n\r\n") == std::string::npos && head.size() < kMaxHead) {
    const ssize_t n = recv(connection, buffer, sizeof(buffer), 0);
    if (n <= 0) return;
    head.append(buffer, static_cast<std::size_t>(n));
  }
  // "GET /path?query HTTP/1.1"
  const std::string_view line = std::string_view(head).substr(0, head.find("\r\n"));
  std::optional<HttpAnswer> answer;
  if (line.starts_with("GET ")) {
    std::string_view target = line.substr(4, line.find(' ', 4) - 4);
    answer = handler_(target.substr(0, target.find('?')));
  }
  const bool found = answer.has_value();
  if (!found) answer = HttpAnswer{"text/plain; charset=utf-8", "not found\n"};
  SendAll(connection, absl::StrCat(found ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n",
                                   "Content-Type: ", answer->content_type,
                                   answer->content_encoding.empty() ? "" : "\r\nContent-Encoding: ",
                                   answer->content_encoding, "\r\nContent-Length: ", answer->body.size(),
                                   "\r\nConnection: close\r\n\r\n", answer->body));
}

}  // namespace collide::server
