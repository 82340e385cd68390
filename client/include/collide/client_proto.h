// The Client's calls on collide.v1 messages, for tools that already hold the
// wire form (the CLI reads it from JSON). Same channel, deadline, retries and
// status mapping as the typed methods of client.h, which are built on these.
#ifndef COLLIDE_CLIENT_PROTO_H_
#define COLLIDE_CLIENT_PROTO_H_

#include <span>
#include <string>

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

// The query methods, for CallSerialized.
enum class QueryMethod { kQueryPairs, kQueryPairsPacked, kCastRays, kCastRaysPacked };

// One call of `method` whose request is already serialized (`request`: the
// method's request message in wire form), for a caller that sends the same
// batch many times and so skips protobuf's encoder on every call (collide
// bench). Same channel, deadline, retries and status mapping as the calls
// above; `response` must be the method's response message type.
absl::Status CallSerialized(Client& client, QueryMethod method, const std::string& request,
                            google::protobuf::Message& response);

// The requests Client::QueryPairs and Client::QueryPairsPacked send, for a
// caller that sends the same batch many times (collide bench builds each
// once). `request` is overwritten. The packed one fails with INVALID_ARGUMENT
// for a kind that has no packed encoding (convex_hull).
void BuildQueryPairsRequest(QueryLevel level, std::span<const ShapePair> pairs,
                            v1::QueryPairsRequest& request);
absl::Status BuildQueryPairsPackedRequest(QueryLevel level, ShapeKind kind_a, std::span<const double> a,
                                          ShapeKind kind_b, std::span<const double> b,
                                          v1::QueryPairsPackedRequest& request);

}  // namespace collide

#endif  // COLLIDE_CLIENT_PROTO_H_
