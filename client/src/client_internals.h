// What WorldClient shares with Client (client.cc): the channel and options of
// a Client, and the bearer-token metadata every call carries.
#ifndef COLLIDE_CLIENT_SRC_CLIENT_INTERNALS_H_
#define COLLIDE_CLIENT_SRC_CLIENT_INTERNALS_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include <memory>

#include "collide/client.h"

namespace collide {

struct ClientInternals {
  static std::shared_ptr<grpc::Channel> Channel(const Client& client);
  static const ClientOptions& Options(const Client& client);
};

// "authorization: Bearer <token>" when options.token is set. Call metadata
// rather than grpc::AccessTokenCredentials: gRPC sends call credentials over
// TLS only, and the server accepts tokens over plaintext (loopback, or TLS
// terminated by a mesh) too.
void AddAuthorization(const ClientOptions& options, grpc::ClientContext& context);

}  // namespace collide

#endif  // COLLIDE_CLIENT_SRC_CLIENT_INTERNALS_H_
