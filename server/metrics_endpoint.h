// A plain HTTP/1.x endpoint for Prometheus: GET /metrics answers 200 with
// the text a render function returns (Metrics::Render), anything else 404.
// One thread serves one connection at a time, reading at most 8 KiB of
// request head for at most 2 s: an operator's port, not for clients (put it
// on a port the cluster's scraper reaches and nothing else).
#ifndef COLLIDE_SERVER_METRICS_ENDPOINT_H_
#define COLLIDE_SERVER_METRICS_ENDPOINT_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace collide::server {

class MetricsEndpoint {
 public:
  // Listens on host:port (0 picks a free port; see port()).
  static absl::StatusOr<std::unique_ptr<MetricsEndpoint>> Start(const std::string& host, int port,
                                                                std::function<std::string()> render);
  ~MetricsEndpoint();  // Stops and joins the thread.
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  int port() const { return port_; }

 private:
  MetricsEndpoint(int fd, int port, std::function<std::string()> render);
  void Serve();
  void Answer(int connection) const;

  int fd_;
  int port_;
  std::function<std::string()> render_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_METRICS_ENDPOINT_H_
