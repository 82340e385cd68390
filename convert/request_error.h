// Why a request on the wire was not answered, and its google.rpc.Status:
// shared by the server (status_mapping.h makes it a grpc::Status) and by the
// world calls that a replay runs without a server (world_calls.h), so that
// both answer an error with the same bytes.
#ifndef COLLIDE_CONVERT_REQUEST_ERROR_H_
#define COLLIDE_CONVERT_REQUEST_ERROR_H_

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "convert/violations.h"
#include "google/rpc/status.pb.h"

namespace collide::convert {

// A google.rpc.ErrorInfo (machine-readable reason) for a status's details.
struct ErrorInfo {
  std::string reason;  // "WORLD_NOT_FOUND"; empty: no ErrorInfo.
  std::string domain;
  std::map<std::string, std::string> metadata;
};

// Why a request was not answered.
struct RequestError {
  enum class Kind {
    kInvalidRequest,       // Bad field values: INVALID_ARGUMENT with a BadRequest.
    kLimitExceeded,        // Over a server limit: RESOURCE_EXHAUSTED.
    kUnsupportedPair,      // The library has no answer: UNIMPLEMENTED with a BadRequest.
    kCancelled,            // The client cancelled: CANCELLED.
    kDeadlineExceeded,     // The deadline passed mid-batch: DEADLINE_EXCEEDED.
    kUnsupportedEncoding,  // A compressed request: UNIMPLEMENTED.
    kNotFound,             // No such world for this caller: NOT_FOUND.
    kAlreadyExists,        // The world id is taken: ALREADY_EXISTS.
    kFailedPrecondition,   // Not applicable to the world's state: FAILED_PRECONDITION.
    kUnavailable,          // The server is shutting down: UNAVAILABLE.
  };
  Kind kind;
  std::string message;
  // Listed in a google.rpc.BadRequest when non-null and non-empty.
  const ViolationList* violations = nullptr;
  // Holds `violations` when the error owns them (InvalidFields of an rvalue),
  // so that the error may outlive the function that found them.
  std::shared_ptr<const ViolationList> owned_violations;
  // Added to the details as a google.rpc.ErrorInfo when info.reason is set.
  ErrorInfo info;
  // The part of a Tick message the error is about ("shots"), or "": the
  // message is prefixed "shots: " and every listed field path is put under
  // it ("shots.shots[2].direction").
  std::string part;
};

// The INVALID_ARGUMENT error listing `violations` (not empty), with the
// message "<total> invalid field(s); first: <field>: <description>". This
// one refers to `violations`, which must outlive it...
RequestError InvalidFields(const ViolationList& violations);
// ... and this one keeps them.
RequestError InvalidFields(ViolationList&& violations);
// InvalidFields of the one violation.
RequestError InvalidField(std::string field, std::string description);
// The UNIMPLEMENTED error listing `violations` (not empty, outliving the
// error), with the message "<total> unsupported <noun>(s); first: <field>".
RequestError UnsupportedItems(const ViolationList& violations, std::string_view noun);
// RESOURCE_EXHAUSTED "the request holds <items> items; --max_items_per_request
// is <max>".
RequestError TooManyItems(std::size_t items, int max);

// Both bounds keep the whole trailer (grpc-message plus
// grpc-status-details-bin, which may travel base64-encoded) under the 8 KiB
// metadata limit that gRPC clients apply by default: a larger trailer fails
// the call on the client with "received initial metadata size exceeds limit"
// and loses every detail.
// Longest status message, bytes; the details carry the full list.
inline constexpr std::size_t kMaxStatusMessageBytes = 512;
// Most violations listed in the BadRequest (ViolationList keeps as many).
inline constexpr std::size_t kMaxListedViolations = ViolationList::kDefaultMaxKept;
// Most bytes of listed violations (field + description) in the BadRequest.
// collide.proto's Errors comment states both bounds to clients
// (status_mapping_test checks that it names these values).
inline constexpr std::size_t kMaxViolationBytes = 4096;

// The error as a google.rpc.Status (a Tick answer's, and what a gRPC
// status carries): its code (google.rpc.Code), a message (truncated to
// kMaxStatusMessageBytes) and, when it has violations, one
// google.rpc.BadRequest in the details: the first kept violations, at most
// kMaxListedViolations and kMaxViolationBytes, then a final "..." entry
// counting the ones not listed. ErrorInfo when `error.info` has a reason.
// Field paths and the message are under error.part, which does not count
// toward the bounds.
google::rpc::Status ToRpcStatus(const RequestError& error);

}  // namespace collide::convert

#endif  // COLLIDE_CONVERT_REQUEST_ERROR_H_
