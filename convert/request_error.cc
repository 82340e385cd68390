#include "convert/request_error.h"

#include <utility>

#include "google/rpc/error_details.pb.h"

namespace collide::convert {
namespace {

// google.rpc.Code (the gRPC status codes) of an error kind.
int CodeOf(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::kInvalidRequest:
      return 3;  // INVALID_ARGUMENT
    case RequestError::Kind::kLimitExceeded:
      return 8;  // RESOURCE_EXHAUSTED
    case RequestError::Kind::kUnsupportedPair:
    case RequestError::Kind::kUnsupportedEncoding:
      return 12;  // UNIMPLEMENTED
    case RequestError::Kind::kCancelled:
      return 1;  // CANCELLED
    case RequestError::Kind::kDeadlineExceeded:
      return 4;  // DEADLINE_EXCEEDED
    case RequestError::Kind::kNotFound:
      return 5;  // NOT_FOUND
    case RequestError::Kind::kAlreadyExists:
      return 6;  // ALREADY_EXISTS
    case RequestError::Kind::kFailedPrecondition:
      return 9;  // FAILED_PRECONDITION
    case RequestError::Kind::kUnavailable:
      return 14;  // UNAVAILABLE
  }
  return 2;  // UNKNOWN
}

// The message as sent: at most kMaxStatusMessageBytes, then under the part.
std::string MessageOf(const RequestError& error) {
  std::string message = error.message;
  if (message.size() > kMaxStatusMessageBytes) {
    message.resize(kMaxStatusMessageBytes - 3);
    message += "...";
  }
  if (!error.part.empty()) message = error.part + ": " + message;
  return message;
}

bool HasViolations(const RequestError& error) {
  return error.violations != nullptr && !error.violations->empty();
}

bool HasDetails(const RequestError& error) { return HasViolations(error) || !error.info.reason.empty(); }

// The one form of a listing's message: "<total> <noun>(s); first: <field>",
// then ": <description>" when `with_description`.
std::string Summary(const ViolationList& violations, std::string_view noun, bool with_description) {
  const Violation& first = violations.kept().front();
  std::string message =
      std::to_string(violations.total()) + " " + std::string(noun) + "(s); first: " + first.field;
  if (with_description) message += ": " + first.description;
  return message;
}

// The path a listed field is sent as.
std::string FieldOf(const RequestError& error, const std::string& field) {
  return error.part.empty() ? field : JoinPath(error.part, field);
}

google::rpc::Status Details(const RequestError& error, int code, const std::string& message) {
  google::rpc::Status details;
  details.set_code(code);
  details.set_message(message);
  if (HasViolations(error)) {
    // As grpc/grpc examples/cpp/error_details: a google.rpc.Status whose
    // details hold the BadRequest, serialized into the trailer.
    google::rpc::BadRequest bad_request;
    std::size_t bytes = 0;
    std::size_t listed = 0;
    for (const Violation& v : error.violations->kept()) {
      bytes += v.field.size() + v.description.size();
      if (bytes > kMaxViolationBytes || listed == kMaxListedViolations) break;
      google::rpc::BadRequest::FieldViolation* fv = bad_request.add_field_violations();
      fv->set_field(FieldOf(error, v.field));
      fv->set_description(v.description);
      ++listed;
    }
    const std::size_t more = error.violations->total() - listed;
    if (more > 0) {
      google::rpc::BadRequest::FieldViolation* fv = bad_request.add_field_violations();
      fv->set_field(FieldOf(error, "..."));
      fv->set_description(std::to_string(more) + " more violations not listed");
    }
    details.add_details()->PackFrom(bad_request);
  }
  if (!error.info.reason.empty()) {
    google::rpc::ErrorInfo info;
    info.set_reason(error.info.reason);
    info.set_domain(error.info.domain);
    for (const auto& [key, value] : error.info.metadata) (*info.mutable_metadata())[key] = value;
    details.add_details()->PackFrom(info);
  }
  return details;
}

}  // namespace

RequestError InvalidFields(const ViolationList& violations) {
  return {RequestError::Kind::kInvalidRequest, Summary(violations, "invalid field", true), &violations};
}

RequestError InvalidFields(ViolationList&& violations) {
  auto owned = std::make_shared<const ViolationList>(std::move(violations));
  RequestError error = InvalidFields(*owned);
  error.owned_violations = std::move(owned);
  return error;
}

RequestError InvalidField(std::string field, std::string description) {
  ViolationList violations;
  violations.Add(std::move(field), std::move(description));
  return InvalidFields(std::move(violations));
}

RequestError UnsupportedItems(const ViolationList& violations, std::string_view noun) {
  return {RequestError::Kind::kUnsupportedPair,
          Summary(violations, "unsupported " + std::string(noun), false), &violations};
}

RequestError TooManyItems(std::size_t items, int max) {
  return {RequestError::Kind::kLimitExceeded, "the request holds " + std::to_string(items) +
                                                  " items; --max_items_per_request is " +
                                                  std::to_string(max)};
}

google::rpc::Status ToRpcStatus(const RequestError& error) {
  const int code = CodeOf(error.kind);
  const std::string message = MessageOf(error);
  if (HasDetails(error)) return Details(error, code, message);
  google::rpc::Status status;
  status.set_code(code);
  status.set_message(message);
  return status;
}

}  // namespace collide::convert
