// A plain HTTP/1.x endpoint for GET requests: a handler maps the path (the
// query string cut off) to an answer, or to 404. collide-server's
// Prometheus /metrics and the CLI's viewer (`collide world view`) serve
// through it. One thread serves one connection at a time, reading at most
// 8 KiB of request head for at most 2 s: an operator's or a developer's port,
// not for clients.
#ifndef COLLIDE_SERVER_HTTP_ENDPOINT_H_
#define COLLIDE_SERVER_HTTP_ENDPOINT_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "absl/status/statusor.h"

namespace collide::server {

struct HttpAnswer {
  std::string content_type;
  std::string body;
  // "gzip" when `body` is compressed so (browsers inflate it); empty: none.
  std::string content_encoding = {};
};
// nullopt: 404.
using HttpHandler = std::function<std::optional<HttpAnswer>(std::string_view path)>;

class HttpEndpoint {
 public:
  // Listens on host:port (0 picks a free port; see port()).
  static absl::StatusOr<std::unique_ptr<HttpEndpoint>> Start(const std::string& host, int port,
                                                             HttpHandler handler);
  ~HttpEndpoint();  // Stops and joins the thread.
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  int port() const { return port_; }

 private:
  HttpEndpoint(int fd, int port, HttpHandler handler);
  void Serve();
  void Answer(int connection) const;

  int fd_;
  int port_;
  HttpHandler handler_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_HTTP_ENDPOINT_H_
