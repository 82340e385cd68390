#include "server/status_mapping.h"

#include <string>

namespace collide::server {

grpc::Status ToGrpcStatus(const RequestError& error) {
  google::rpc::Status status = ToRpcStatus(error);
  const auto code = static_cast<grpc::StatusCode>(status.code());
  if (status.details().empty()) return grpc::Status(code, std::move(*status.mutable_message()));
  const std::string details = status.SerializeAsString();
  return grpc::Status(code, status.message(), details);
}

}  // namespace collide::server
