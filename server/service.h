// The collide.v1.CollisionService handlers (gRPC callback API). Each is thin:
// validate and convert the request (convert/), run the batch on the
// BatchRunner, convert the results back; every error goes through
// ToGrpcStatus.
#ifndef COLLIDE_SERVER_SERVICE_H_
#define COLLIDE_SERVER_SERVICE_H_

#include <atomic>
#include <cstdint>
#include <string>

#include "collide/v1/collide.grpc.pb.h"
#include "server/batch_runner.h"

namespace collide::server {

// Limits and identity the service reports and enforces.
struct ServiceConfig {
  int max_items_per_request = 65536;
  int max_receive_message_bytes = 64 << 20;  // Enforced by gRPC; reported here.
  std::string version;
  std::string replica;  // "<hostname>:<pid>".
};

class CollisionService final : public v1::CollisionService::CallbackService {
 public:
  // `runner` must outlive the service.
  CollisionService(ServiceConfig config, BatchRunner& runner);
  ~CollisionService() override;

  grpc::ServerUnaryReactor* QueryPairs(grpc::CallbackServerContext* context,
                                       const v1::QueryPairsRequest* request,
                                       v1::QueryPairsResponse* response) override;
  grpc::ServerUnaryReactor* QueryPairsPacked(grpc::CallbackServerContext* context,
                                             const v1::QueryPairsPackedRequest* request,
                                             v1::QueryPairsPackedResponse* response) override;
  grpc::ServerUnaryReactor* CastRays(grpc::CallbackServerContext* context, const v1::CastRaysRequest* request,
                                     v1::CastRaysResponse* response) override;
  grpc::ServerUnaryReactor* CastRaysPacked(grpc::CallbackServerContext* context,
                                           const v1::CastRaysPackedRequest* request,
                                           v1::CastRaysPackedResponse* response) override;
  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const v1::GetServerInfoRequest* request,
                                          v1::ServerInfo* response) override;

 private:
  struct Allocators;

  // Runs a decoded request of `items` items (all the steps after decoding
  // are the same for every method) and records counters and the access log.
  template <typename Request, typename Response>
  grpc::Status Serve(const char* method, grpc::CallbackServerContext* context, const Request& request,
                     Response* response);

  ServiceConfig config_;
  BatchRunner& runner_;
  std::unique_ptr<Allocators> allocators_;
  std::atomic<std::int64_t> requests_served_{0};
  std::atomic<std::int64_t> items_served_{0};
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_SERVICE_H_
