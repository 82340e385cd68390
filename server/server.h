// The collide gRPC server: CollisionService, grpc.health.v1 and reflection on
// one port. Used by main.cc and, in-process, by the tests.
#ifndef COLLIDE_SERVER_SERVER_H_
#define COLLIDE_SERVER_SERVER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "grpcpp/server.h"
#include "server/batch_runner.h"
#include "server/http_endpoint.h"
#include "server/metrics.h"
#include "server/service.h"
#include "server/test_hooks.h"
#include "server/token_auth.h"
#include "server/transport_security.h"
#include "server/world_service.h"

namespace collide::server {

struct Options {
  // Interface to listen on; the default accepts local connections only.
  std::string host = "127.0.0.1";
  // TCP port; 0 picks a free one (Server::port() tells which).
  int port = 50051;
  // Pool threads that share the work of large batches; 0 = one per hardware
  // thread.
  int worker_threads = 0;
  // Most pairs or casts in one request; more is RESOURCE_EXHAUSTED.
  int max_items_per_request = 65536;
  // Largest request message, bytes; larger is RESOURCE_EXHAUSTED (by gRPC).
  int max_receive_message_bytes = 64 << 20;
  // Admission (ServiceConfig): most query calls in flight, queued or
  // running, and most pairs or casts in them; a call past either is answered
  // RESOURCE_EXHAUSTED at once. 0: no limit. max_items_in_flight must be at
  // least max_items_per_request (a lone call is always admitted).
  int max_concurrent_calls = 64;
  std::int64_t max_items_in_flight = std::int64_t{1} << 17;  // Sizing: docs/operations.md, "Memory".
  // How long Shutdown() lets in-flight calls finish before cancelling them.
  absl::Duration drain_timeout = absl::Seconds(10);

  // Security (docs/operations.md, "Security").
  // TLS certificate, key and (for mTLS) client CA files; none set: plaintext.
  TlsFiles tls;
  // Plaintext permission when tls is not enabled: unset allows it on a
  // loopback host only, true anywhere, false nowhere (CheckPlaintextAllowed).
  absl::optional<bool> insecure;
  // Bearer tokens every call but grpc.health.v1 must carry; empty: no check.
  std::vector<std::string> auth_tokens;

  // Transport limits: what one client or connection may cost the server.
  // Largest response message, bytes.
  int max_send_message_bytes = 64 << 20;
  // Concurrent calls (HTTP/2 streams) per connection.
  int max_concurrent_streams = 100;
  // gRPC's memory quota for the transport (read buffers, call state), bytes.
  std::int64_t resource_quota_bytes = std::int64_t{256} << 20;
  // Threads gRPC may create for the synchronous services (reflection).
  int max_threads = 64;
  // A connection must finish its TLS/HTTP2 handshake within this.
  absl::Duration handshake_timeout = absl::Seconds(10);
  // A connection without calls for this long is closed (GOAWAY); 0 = never.
  absl::Duration max_connection_idle = absl::Minutes(5);
  // Any connection is closed after this long (clients reconnect, which
  // rebalances them), its calls given max_connection_age_grace to finish;
  // 0 = never.
  absl::Duration max_connection_age = absl::Minutes(30);
  absl::Duration max_connection_age_grace = absl::Seconds(30);
  // Keepalive enforcement: pings closer together than this without data
  // count as strikes; more than max_ping_strikes closes the connection.
  absl::Duration min_ping_interval = absl::Seconds(10);
  int max_ping_strikes = 2;

  // Port of the Prometheus endpoint (plain HTTP GET /metrics, HttpEndpoint)
  // on `host`: -1 none, 0 a free one (Server::metrics_port() tells which).
  int metrics_port = -1;

  // Worlds (collide.v1.WorldService): limits per world and per replica.
  WorldLimits world_limits;
  // Directory of the map files CreateWorld may name; "": none.
  std::string maps_dir;
  // Audit trails and match recordings (CreateWorldRequest.journal).
  JournalConfig journal;
  // Bytes all Tick streams together may hold in messages read and not yet
  // run and answers not yet written (WorldServiceConfig); at least 1 MiB.
  std::int64_t tick_streams_memory_bytes = std::int64_t{64} << 20;

  // Tests only: passed to both services.
  TestHooks hooks;
};

// Name of the service in health checks and reflection.
inline constexpr char kServiceName[] = "collide.v1.CollisionService";
inline constexpr char kWorldServiceName[] = "collide.v1.WorldService";

class Server {
 public:
  // Builds and starts the server; it reports SERVING for "", kServiceName
  // and kWorldServiceName as soon as this returns.
  static absl::StatusOr<std::unique_ptr<Server>> Start(const Options& options);
  ~Server();  // Shutdown() and Wait().

  // The port actually bound.
  int port() const { return port_; }
  // "host:port" actually bound.
  std::string address() const;
  const Options& options() const { return options_; }
  // The world service (tests: its registry and Tick memory).
  WorldService& world_service() { return *world_service_; }
  // The metrics endpoint's port; 0 when there is none.
  int metrics_port() const { return metrics_endpoint_ ? metrics_endpoint_->port() : 0; }

  // Reports NOT_SERVING for every service but keeps answering calls, so
  // health-checking load balancers move traffic away first.
  void StartDraining();
  // StartDraining(), then stops accepting calls and lets in-flight ones
  // finish within options().drain_timeout (then cancels them); open Tick
  // streams answer the messages they have read, then end UNAVAILABLE.
  // Idempotent and thread-safe.
  void Shutdown();
  // Blocks until the server has shut down.
  void Wait();

 private:
  Server(const Options& options);

  Options options_;
  int port_ = 0;
  TokenSet tokens_;  // Read by the transport's auth processor.
  std::unique_ptr<BatchRunner> runner_;
  std::unique_ptr<Metrics> metrics_;  // Before service_, which records into it.
  std::unique_ptr<CollisionService> service_;
  std::unique_ptr<WorldService> world_service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<HttpEndpoint> metrics_endpoint_;  // Destroyed first: it reads service_.
  std::mutex mu_;
  bool shut_down_ = false;  // Guarded by mu_.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_SERVER_H_
