// grpc::Status -> absl::Status for the client library (see rpc_status.cc).
#ifndef COLLIDE_CLIENT_SRC_RPC_STATUS_H_
#define COLLIDE_CLIENT_SRC_RPC_STATUS_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"
#include "google/rpc/status.pb.h"

namespace collide {

// Same code and message; every google.rpc.Status detail (an Any) becomes a
// payload under its type URL holding the serialized message.
absl::Status FromGrpcStatus(const grpc::Status& status);
// The same from a google.rpc.Status message (a Tick message's own status).
absl::Status FromRpcStatus(const google::rpc::Status& status);

}  // namespace collide

#endif  // COLLIDE_CLIENT_SRC_RPC_STATUS_H_
