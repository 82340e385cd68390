#include "server/server.h"

#include <unistd.h>

#include <thread>

#include "absl/strings/str_cat.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/server_builder.h"
#include "spdlog/spdlog.h"

#ifndef COLLIDE_VERSION
#define COLLIDE_VERSION "0.0.0"
#endif

namespace collide::server {
namespace {

std::string Replica() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return absl::StrCat(host, ":", getpid());
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
  if (options.worker_threads < 0) return absl::InvalidArgumentError("worker_threads must be >= 0");
  if (options.drain_timeout < absl::ZeroDuration())
    return absl::InvalidArgumentError("drain_timeout must be >= 0");

  std::unique_ptr<Server> server(new Server(options));
  Options& o = server->options_;
  if (o.worker_threads == 0)
    o.worker_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  server->runner_ = std::make_unique<BatchRunner>(o.worker_threads);
  server->service_ = std::make_unique<CollisionService>(
      ServiceConfig{o.max_items_per_request, o.max_receive_message_bytes, COLLIDE_VERSION, Replica()},
      *server->runner_);

  // Process-wide switches, read when a server is built.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  grpc::ServerBuilder builder;
  // IPv6 literals need brackets in a gRPC address.
  const std::string host = o.host.find(':') != std::string::npos ? absl::StrCat("[", o.host, "]") : o.host;
  builder.AddListeningPort(absl::StrCat(host, ":", o.port), grpc::InsecureServerCredentials(),
                           &server->port_);
  builder.SetMaxReceiveMessageSize(o.max_receive_message_bytes);
  builder.RegisterService(server->service_.get());
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", host, ":", o.port));
  }
  grpc::HealthCheckServiceInterface* health = server->server_->GetHealthCheckService();
  health->SetServingStatus("", true);
  health->SetServingStatus(kServiceName, true);
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
  server_->Shutdown(std::chrono::system_clock::now() + absl::ToChronoMicroseconds(options_.drain_timeout));
}

void Server::Wait() {
  if (server_ != nullptr) server_->Wait();
}

}  // namespace collide::server
