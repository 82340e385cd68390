#include "server/status_mapping.h"

#include <utility>

#include "google/rpc/error_details.pb.h"

namespace collide::server {
namespace {

grpc::StatusCode CodeOf(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::kInvalidRequest:
      return grpc::StatusCode::INVALID_ARGUMENT;
    case RequestError::Kind::kLimitExceeded:
      return grpc::StatusCode::RESOURCE_EXHAUSTED;
    case RequestError::Kind::kUnsupportedPair:
    case RequestError::Kind::kUnsupportedEncoding:
      return grpc::StatusCode::UNIMPLEMENTED;
    case RequestError::Kind::kCancelled:
      return grpc::StatusCode::CANCELLED;
    case RequestError::Kind::kDeadlineExceeded:
      return grpc::StatusCode::DEADLINE_EXCEEDED;
    case RequestError::Kind::kNotFound:
      return grpc::StatusCode::NOT_FOUND;
    case RequestError::Kind::kAlreadyExists:
      return grpc::StatusCode::ALREADY_EXISTS;
    case RequestError::Kind::kFailedPrecondition:
      return grpc::StatusCode::FAILED_PRECONDITION;
    case RequestError::Kind::kUnavailable:
      return grpc::StatusCode::UNAVAILABLE;
  }
  return grpc::StatusCode::UNKNOWN;
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
std::string Summary(const convert::ViolationList& violations, std::string_view noun, bool with_description) {
  const Violation& first = violations.kept().front();
  std::string message =
      std::to_string(violations.total()) + " " + std::string(noun) + "(s); first: " + first.field;
  if (with_description) message += ": " + first.description;
  return message;
}

// The path a listed field is sent as.
std::string FieldOf(const RequestError& error, const std::string& field) {
  return error.part.empty() ? field : convert::JoinPath(error.part, field);
}

google::rpc::Status Details(const RequestError& error, grpc::StatusCode code, const std::string& message) {
  google::rpc::Status details;
  details.set_code(static_cast<int>(code));
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

RequestError InvalidFields(const convert::ViolationList& violations) {
  return {RequestError::Kind::kInvalidRequest, Summary(violations, "invalid field", true), &violations};
}

RequestError InvalidFields(convert::ViolationList&& violations) {
  auto owned = std::make_shared<const convert::ViolationList>(std::move(violations));
  RequestError error = InvalidFields(*owned);
  error.owned_violations = std::move(owned);
  return error;
}

RequestError InvalidField(std::string field, std::string description) {
  convert::ViolationList violations;
  violations.Add(std::move(field), std::move(description));
  return InvalidFields(std::move(violations));
}

RequestError UnsupportedItems(const convert::ViolationList& violations, std::string_view noun) {
  return {RequestError::Kind::kUnsupportedPair,
          Summary(violations, "unsupported " + std::string(noun), false), &violations};
}

RequestError TooManyItems(std::size_t items, int max) {
  return {RequestError::Kind::kLimitExceeded, "the request holds " + std::to_string(items) +
                                                  " items; --max_items_per_request is " +
                                                  std::to_string(max)};
}

grpc::Status ToGrpcStatus(const RequestError& error) {
  const grpc::StatusCode code = CodeOf(error.kind);
  std::string message = MessageOf(error);
  if (!HasDetails(error)) return grpc::Status(code, std::move(message));
  const std::string details = Details(error, code, message).SerializeAsString();
  return grpc::Status(code, std::move(message), details);
}

google::rpc::Status ToRpcStatus(const RequestError& error) {
  const grpc::StatusCode code = CodeOf(error.kind);
  const std::string message = MessageOf(error);
  if (HasDetails(error)) return Details(error, code, message);
  google::rpc::Status status;
  status.set_code(static_cast<int>(code));
  status.set_message(message);
  return status;
}

}  // namespace collide::server
