// WorldClient calls on collide.v1 messages, for tools that already hold the
// wire form (the CLI reads a world description as CreateWorldRequest JSON).
#ifndef COLLIDE_WORLD_CLIENT_PROTO_H_
#define COLLIDE_WORLD_CLIENT_PROTO_H_

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "collide/world_client.h"

namespace collide {

// WorldClient::CreateWorld's request for `spec` (`out` is overwritten).
void BuildCreateWorldRequest(const WorldSpec& spec, v1::CreateWorldRequest& out);

// WorldClient::CreateWorld with the request as it is: kept for re-creation
// the same way.
absl::StatusOr<WorldInfo> CreateWorld(WorldClient& client, const v1::CreateWorldRequest& request);

}  // namespace collide

#endif  // COLLIDE_WORLD_CLIENT_PROTO_H_
