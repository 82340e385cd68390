#include "server/server.h"

#include <unistd.h>

#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collide/version.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/resource_quota.h"
#include "grpcpp/server_builder.h"
#include "server/request_encoding.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

std::string Replica() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return absl::StrCat(host, ":", getpid());
}

absl::Status CheckTransportLimits(const Options& o) {
  if (o.max_send_message_bytes < 1) return absl::InvalidArgumentError("max_send_message_bytes must be >= 1");
  if (o.max_concurrent_streams < 1) return absl::InvalidArgumentError("max_concurrent_streams must be >= 1");
  if (o.resource_quota_bytes < (1 << 20))
    return absl::InvalidArgumentError("resource_quota_bytes must be >= 1 MiB");
  if (o.max_threads < 2) return absl::InvalidArgumentError("max_threads must be >= 2");
  if (o.max_ping_strikes < 0) return absl::InvalidArgumentError("max_ping_strikes must be >= 0");
  for (const auto& [name, d] : {std::pair{"handshake_timeout", o.handshake_timeout},
                                {"max_connection_idle", o.max_connection_idle},
                                {"max_connection_age", o.max_connection_age},
                                {"max_connection_age_grace", o.max_connection_age_grace},
                                {"min_ping_interval", o.min_ping_interval}}) {
    if (d < absl::ZeroDuration() || d > absl::Hours(24 * 365)) {
      return absl::InvalidArgumentError(absl::StrCat(name, " must be in [0, 365 days]"));
    }
  }
  if (o.handshake_timeout == absl::ZeroDuration())
    return absl::InvalidArgumentError("handshake_timeout must be > 0");
  return absl::OkStatus();
}

int Millis(absl::Duration d) { return static_cast<int>(absl::ToInt64Milliseconds(d)); }

// The transport limits as channel arguments of the listening port.
void ApplyTransportLimits(const Options& o, grpc::ServerBuilder& builder) {
  builder.SetMaxReceiveMessageSize(o.max_receive_message_bytes);
  builder.SetMaxSendMessageSize(o.max_send_message_bytes);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, o.max_concurrent_streams);
  grpc::ResourceQuota quota("collide-server");
  quota.Resize(static_cast<std::size_t>(o.resource_quota_bytes)).SetMaxThreads(o.max_threads);
  builder.SetResourceQuota(quota);
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, Millis(o.handshake_timeout));
  if (o.max_connection_idle > absl::ZeroDuration())
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, Millis(o.max_connection_idle));
  if (o.max_connection_age > absl::ZeroDuration()) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, Millis(o.max_connection_age));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, Millis(o.max_connection_age_grace));
  }
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                             Millis(o.min_ping_interval));
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, o.max_ping_strikes);
  // Decompression off: a compressed message reaches the service as the
  // bytes sent (bounded by max_receive_message_bytes) and is refused,
  // instead of being inflated first. Measured on gRPC 1.51: a 1 MB gzip body
  // that inflates to 1 GiB cost the default configuration 1.1 GB of memory;
  // with decompression off, 16 MB. No client of ours compresses.
  builder.AddChannelArgument(GRPC_ARG_ENABLE_PER_MESSAGE_DECOMPRESSION, 0);
  // Compressed requests reach the handlers as sent and are refused there,
  // naming the accepted encodings (server/request_encoding.h says why gRPC
  // 1.51 cannot): every algorithm enabled, so that gRPC does not cancel the
  // call itself; the compression filter off, so that it advertises nothing
  // (AcceptEncodingInterceptorFactory advertises identity) and never
  // compresses a response.
  builder.AddChannelArgument(GRPC_COMPRESSION_CHANNEL_ENABLED_ALGORITHMS_BITSET,
                             (1 << GRPC_COMPRESS_ALGORITHMS_COUNT) - 1);
  builder.AddChannelArgument(GRPC_ARG_ENABLE_PER_MESSAGE_COMPRESSION, 0);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(AcceptEncodingInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
}

}  // namespace

Server::Server(const Options& options) : options_(options) {}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const Options& options) {
  if (options.port < 0 || options.port > 65535)
    return absl::InvalidArgumentError("port must be in [0, 65535]");
  if (options.max_items_per_request < 1)
    return absl::InvalidArgumentError("max_items_per_request must be >= 1");
  if (options.max_receive_message_bytes < 1) {
    return absl::InvalidArgumentError("max_receive_message_bytes must be >= 1");
  }
  if (options.max_concurrent_calls < 0)
    return absl::InvalidArgumentError("max_concurrent_calls must be >= 0");
  if (options.max_items_in_flight < 0 ||
      (options.max_items_in_flight > 0 && options.max_items_in_flight < options.max_items_per_request)) {
    return absl::InvalidArgumentError("max_items_in_flight must be 0 (no limit) or >= max_items_per_request");
  }
  if (options.worker_threads < 0) return absl::InvalidArgumentError("worker_threads must be >= 0");
  if (options.metrics_port < -1 || options.metrics_port > 65535)
    return absl::InvalidArgumentError("metrics_port must be -1 (none) or in [0, 65535]");
  if (options.drain_timeout < absl::ZeroDuration())
    return absl::InvalidArgumentError("drain_timeout must be >= 0");
  if (options.tick_streams_memory_bytes < (1 << 20))
    return absl::InvalidArgumentError("tick_streams_memory_bytes must be >= 1 MiB");
  if (absl::Status limits = CheckTransportLimits(options); !limits.ok()) return limits;
  if (std::string bad = CheckWorldLimits(options.world_limits); !bad.empty()) {
    return absl::InvalidArgumentError(bad);
  }
  if (std::string bad = CheckJournalConfig(options.journal); !bad.empty()) {
    return absl::InvalidArgumentError(bad);
  }
  if (absl::Status plaintext = CheckPlaintextAllowed(options.host, options.tls, options.insecure);
      !plaintext.ok()) {
    return plaintext;
  }

  std::unique_ptr<Server> server(new Server(options));
  Options& o = server->options_;
  if (o.worker_threads == 0)
    o.worker_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  server->runner_ = std::make_unique<BatchRunner>(o.worker_threads);
  if (o.metrics_port >= 0) server->metrics_ = std::make_unique<Metrics>();
  server->service_ = std::make_unique<CollisionService>(
      ServiceConfig{.max_items_per_request = o.max_items_per_request,
                    .max_receive_message_bytes = o.max_receive_message_bytes,
                    .max_concurrent_calls = o.max_concurrent_calls,
                    .max_items_in_flight = o.max_items_in_flight,
                    .call_threads = o.worker_threads,
                    .hooks = o.hooks,
                    .version = COLLIDE_VERSION,
                    .replica = Replica(),
                    .metrics = server->metrics_.get()},
      *server->runner_);
  server->world_service_ = std::make_unique<WorldService>(
      WorldServiceConfig{.limits = o.world_limits,
                         .max_items_per_request = o.max_items_per_request,
                         .max_send_message_bytes = o.max_send_message_bytes,
                         .replica = Replica(),
                         .maps_dir = o.maps_dir,
                         .tenants_by_token = !TokenSet(o.auth_tokens).empty(),
                         .admission = &server->service_->admission(),
                         .call_threads = o.worker_threads,
                         .tick_streams_memory_bytes = o.tick_streams_memory_bytes,
                         .journal = o.journal,
                         .hooks = o.hooks});

  // Process-wide switches, read when a server is built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  grpc::ServerBuilder builder;
  // IPv6 literals need brackets in a gRPC address.
  const std::string host = o.host.find(':') != std::string::npos ? absl::StrCat("[", o.host, "]") : o.host;
  server->tokens_ = TokenSet(o.auth_tokens);
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeServerCredentials(o.tls, &server->tokens_);
  if (!credentials.ok()) return credentials.status();
  builder.AddListeningPort(absl::StrCat(host, ":", o.port), *credentials, &server->port_);
  ApplyTransportLimits(o, builder);
  builder.RegisterService(server->service_.get());
  if (server->metrics_ != nullptr) server->world_service_->AttachMetrics(*server->metrics_);
  builder.RegisterService(server->world_service_.get());
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", host, ":", o.port));
  }
  if (server->metrics_ != nullptr) {
    CollisionService* service = server->service_.get();
    server->metrics_->SetInFlightSource([service] { return service->calls_in_flight(); });
    absl::StatusOr<std::unique_ptr<HttpEndpoint>> endpoint = HttpEndpoint::Start(
        o.host, o.metrics_port,
        [metrics = server->metrics_.get()](std::string_view path) -> std::optional<HttpAnswer> {
          if (path != "/metrics") return std::nullopt;
          return HttpAnswer{"text/plain; version=0.0.4; charset=utf-8", metrics->Render()};
        });
    if (!endpoint.ok()) return endpoint.status();
    server->metrics_endpoint_ = std::move(*endpoint);
  }
  grpc::HealthCheckServiceInterface* health = server->server_->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);
  health->SetServingStatus(kWorldServiceName, true);
  return server;
}

Server::~Server() {
  Shutdown();
  Wait();
}

std::string Server::address() const { return absl::StrCat(options_.host, ":", port_); }

void Server::StartDraining() {
  if (grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService()) {
    health->SetServingStatus(false);
  }
}

void Server::Shutdown() {
  {
    std::lock_guard lock(mu_);
    if (shut_down_ || server_ == nullptr) return;
    shut_down_ = true;
  }
  // Health first, so load balancers stop sending before the port closes.
  StartDraining();
  // Open Tick streams end with a status once their messages are answered;
  // gRPC's Shutdown below would wait for them, then cancel them.
  world_service_->Drain();
  server_->Shutdown(std::chrono::system_clock::now() + absl::ToChronoMicroseconds(options_.drain_timeout));
}

void Server::Wait() {
  if (server_ != nullptr) server_->Wait();
}

}  // namespace collide::server
