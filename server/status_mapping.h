// The one place where request outcomes become grpc::Status values
// (convert/request_error.h: the errors and their google.rpc.Status).
#ifndef COLLIDE_SERVER_STATUS_MAPPING_H_
#define COLLIDE_SERVER_STATUS_MAPPING_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "convert/request_error.h"
#include "grpcpp/support/status.h"

namespace collide::server {

using convert::ErrorInfo;
using convert::InvalidField;
using convert::InvalidFields;
using convert::kMaxListedViolations;
using convert::kMaxStatusMessageBytes;
using convert::kMaxViolationBytes;
using convert::RequestError;
using convert::TooManyItems;
using convert::ToRpcStatus;
using convert::UnsupportedItems;

// Maps `error` to a grpc::Status: ToRpcStatus's code and message, and its
// details (when it has any) as grpc-status-details-bin.
grpc::Status ToGrpcStatus(const RequestError& error);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_STATUS_MAPPING_H_
