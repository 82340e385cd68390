// WorldClient calls on collide.v1 messages, for tools that already hold the
// wire form (the CLI reads a world description as CreateWorldRequest JSON).
#ifndef COLLIDE_WORLD_CLIENT_PROTO_H_
#define COLLIDE_WORLD_CLIENT_PROTO_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/v1/world.pb.h"
#include "collide/world_client.h"

namespace collide {

// WorldClient::CreateWorld's request for `spec` (`out` is overwritten).
void BuildCreateWorldRequest(const WorldSpec& spec, v1::CreateWorldRequest& out);

// WorldClient::CreateWorld with the request as it is: kept for re-creation
// the same way.
absl::StatusOr<WorldInfo> CreateWorld(WorldClient& client, const v1::CreateWorldRequest& request);

// Sends `requests` in order on one Tick stream of `world_id`, each as it is
// (sequences must increase), reading each answer before the next message:
// for re-judging a recording on a live server (`collide world replay
// --target`). The answers in order, or the stream's error.
absl::StatusOr<std::vector<v1::TickResponse>> SendTickMessages(WorldClient& client, std::string_view world_id,
                                                               const std::vector<v1::TickRequest>& requests);

}  // namespace collide

#endif  // COLLIDE_WORLD_CLIENT_PROTO_H_
