// The one place where request outcomes become grpc::Status values.
#ifndef COLLIDE_SERVER_STATUS_MAPPING_H_
#define COLLIDE_SERVER_STATUS_MAPPING_H_

#include <string>

#include "convert/violations.h"
#include "grpcpp/support/status.h"

namespace collide::server {

// Why a request was not answered.
struct RequestError {
  enum class Kind {
    kInvalidRequest,    // Bad field values: INVALID_ARGUMENT with a BadRequest.
    kLimitExceeded,     // Over a server limit: RESOURCE_EXHAUSTED.
    kUnsupportedPair,   // The library has no answer: UNIMPLEMENTED with a BadRequest.
    kCancelled,         // The client cancelled: CANCELLED.
    kDeadlineExceeded,  // The deadline passed mid-batch: DEADLINE_EXCEEDED.
  };
  Kind kind;
  std::string message;
  // Listed in a google.rpc.BadRequest when non-null and non-empty.
  const convert::ViolationList* violations = nullptr;
};

// Both bounds keep the whole trailer (grpc-message plus
// grpc-status-details-bin, which may travel base64-encoded) under the 8 KiB
// metadata limit that gRPC clients apply by default: a larger trailer fails
// the call on the client with "received initial metadata size exceeds limit"
// and loses every detail.
// Longest status message, bytes; the details carry the full list.
inline constexpr std::size_t kMaxStatusMessageBytes = 512;
// Most violations listed in the BadRequest (ViolationList keeps as many).
inline constexpr std::size_t kMaxListedViolations = convert::ViolationList::kDefaultMaxKept;
// Most bytes of listed violations (field + description) in the BadRequest.
// collide.proto's Errors comment states both bounds to clients
// (status_mapping_test checks that it names these values).
inline constexpr std::size_t kMaxViolationBytes = 4096;

// Maps `error` to its status code, a message (truncated to
// kMaxStatusMessageBytes) and, when it has violations, a google.rpc.Status
// with one google.rpc.BadRequest as grpc-status-details-bin: the first kept
// violations, at most kMaxListedViolations and kMaxViolationBytes, then a
// final "..." entry counting the ones not listed.
grpc::Status ToGrpcStatus(const RequestError& error);

}  // namespace collide::server

#endif  // COLLIDE_SERVER_STATUS_MAPPING_H_
