// The Client's calls on collide.v1 messages, for tools that already hold the
// wire form (the CLI reads it from JSON). Same channel, deadline, retries and
// status mapping as the typed methods of client.h, which are built on these.
#ifndef COLLIDE_CLIENT_PROTO_H_
#define COLLIDE_CLIENT_PROTO_H_

#include "absl/status/status.h"
#include "collide/client.h"
#include "collide/v1/collide.pb.h"

namespace collide {

absl::Status CallQueryPairs(Client& client, const v1::QueryPairsRequest& request,
                            v1::QueryPairsResponse& response);
absl::Status CallQueryPairsPacked(Client& client, const v1::QueryPairsPackedRequest& request,
                                  v1::QueryPairsPackedResponse& response);
absl::Status CallCastRays(Client& client, const v1::CastRaysRequest& request, v1::CastRaysResponse& response);
absl::Status CallCastRaysPacked(Client& client, const v1::CastRaysPackedRequest& request,
                                v1::CastRaysPackedResponse& response);
absl::Status CallGetServerInfo(Client& client, const v1::GetServerInfoRequest& request,
                               v1::ServerInfo& response);

}  // namespace collide

#endif  // COLLIDE_CLIENT_PROTO_H_
