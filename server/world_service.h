// The collide.v1.WorldService unary handlers (gRPC callback API): checks of
// the world id and the `collide-world` header, the registry's limits,
// conversion (convert/world_*), then the core World under the world's lock.
// Errors as world.proto's header lists them.
//
// The handlers run on gRPC's callback threads: world calls are short (a
// frame, a batch of queries), and a mesh's BVH is built once at creation.
#ifndef COLLIDE_SERVER_WORLD_SERVICE_H_
#define COLLIDE_SERVER_WORLD_SERVICE_H_

#include <string>
#include <vector>

#include "collide/v1/world.grpc.pb.h"
#include "collide/world.h"
#include "convert/violations.h"
#include "server/world_registry.h"

namespace collide::server {

// Name of the metadata header that must carry the request's world id.
inline constexpr char kWorldHeader[] = "collide-world";

struct WorldServiceConfig {
  WorldLimits limits;
  // Most queries, shots or moves in one call (the service's
  // --max_items_per_request).
  int max_items_per_request = 65536;
  std::string replica;  // "<hostname>:<pid>", reported in WorldInfo.
  // Directory of the map files CreateWorld may name (MapFile.name); "": none.
  std::string maps_dir;
  // Token auth is on: a world belongs to the tenant of its creator's bearer
  // token (TokenPrincipal), and other tenants cannot see it. Off: every
  // caller is the one tenant "".
  bool tenants_by_token = false;
};

// Every unary method served raw (ServeRaw); Tick is not implemented yet.
using WorldServiceBase = v1::WorldService::WithRawCallbackMethod_CreateWorld<
    v1::WorldService::WithRawCallbackMethod_DeleteWorld<v1::WorldService::WithRawCallbackMethod_GetWorld<
        v1::WorldService::WithRawCallbackMethod_ListWorlds<v1::WorldService::WithRawCallbackMethod_PushFrame<
            v1::WorldService::WithRawCallbackMethod_QueryWorld<
                v1::WorldService::WithRawCallbackMethod_CastWorldRaysPacked<
                    v1::WorldService::WithRawCallbackMethod_ValidateShots<
                        v1::WorldService::WithRawCallbackMethod_ValidateShotsPacked<
                            v1::WorldService::WithRawCallbackMethod_ValidateMoves<
                                v1::WorldService::CallbackService>>>>>>>>>>;

class WorldService final : public WorldServiceBase {
 public:
  explicit WorldService(WorldServiceConfig config);

  grpc::ServerUnaryReactor* CreateWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* DeleteWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ListWorlds(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* PushFrame(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                      grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* QueryWorld(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CastWorldRaysPacked(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateShots(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateShotsPacked(grpc::CallbackServerContext* context,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateMoves(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;

  WorldRegistry& registry() { return registry_; }

 private:
  // The caller's tenant (WorldServiceConfig::tenants_by_token).
  std::string Principal(const grpc::CallbackServerContext& context) const;
  // Checks the id and header, then finds the caller's world; null with
  // `status` set when any fails.
  template <typename Request>
  std::shared_ptr<WorldEntry> Lookup(const grpc::CallbackServerContext& context, const Request& request,
                                     grpc::Status& status);
  // Parses the request bytes (ParseRequest), answers with handle(request,
  // &response) and serializes the response: the body of every unary method.
  template <typename Request, typename Response, typename Handle>
  grpc::ServerUnaryReactor* ServeRaw(grpc::CallbackServerContext* context,
                                     const grpc::ByteBuffer* request_bytes, grpc::ByteBuffer* response_bytes,
                                     Handle handle);
  // ServeRaw of a method on one world: the id and header checked, the
  // caller's world found, then Run.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* ServeInWorld(grpc::CallbackServerContext* context,
                                         const grpc::ByteBuffer* request_bytes,
                                         grpc::ByteBuffer* response_bytes);

  // One request on its world, found: the whole handling after the lookup,
  // the same for a unary call and a Tick message (item limit, decoding, the
  // core under the world's lock, the response or the error status).
  grpc::Status Run(WorldEntry& entry, const v1::GetWorldRequest& request, v1::WorldInfo* response);
  grpc::Status Run(WorldEntry& entry, const v1::PushFrameRequest& request, v1::PushFrameResponse* response);
  grpc::Status Run(WorldEntry& entry, const v1::QueryWorldRequest& request, v1::QueryWorldResponse* response);
  grpc::Status Run(WorldEntry& entry, const v1::CastWorldRaysPackedRequest& request,
                   v1::CastWorldRaysPackedResponse* response);
  grpc::Status Run(WorldEntry& entry, const v1::ValidateShotsRequest& request,
                   v1::ValidateShotsResponse* response);
  grpc::Status Run(WorldEntry& entry, const v1::ValidateShotsPackedRequest& request,
                   v1::ValidateShotsResponse* response);
  grpc::Status Run(WorldEntry& entry, const v1::ValidateMovesRequest& request,
                   v1::ValidateMovesResponse* response);

  grpc::Status Create(const std::string& owner, const v1::CreateWorldRequest& request,
                      v1::WorldInfo* response);
  void FillInfo(WorldEntry& entry, v1::WorldInfo* out);
  // Shot verdicts of decoded `shots`; invalid ones are added by `add_problems`.
  template <typename AddProblems>
  grpc::Status JudgeShots(WorldEntry& entry, const std::vector<ShotRequest>& shots,
                          convert::ViolationList& violations, AddProblems add_problems,
                          v1::ValidateShotsResponse* response);

  const WorldServiceConfig config_;
  WorldRegistry registry_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_SERVICE_H_
