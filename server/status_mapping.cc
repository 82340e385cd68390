#include "server/status_mapping.h"

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace collide::server {

grpc::Status ToGrpcStatus(const RequestError& error) {
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;
  switch (error.kind) {
    case RequestError::Kind::kInvalidRequest:
      code = grpc::StatusCode::INVALID_ARGUMENT;
      break;
    case RequestError::Kind::kLimitExceeded:
      code = grpc::StatusCode::RESOURCE_EXHAUSTED;
      break;
    case RequestError::Kind::kUnsupportedPair:
      code = grpc::StatusCode::UNIMPLEMENTED;
      break;
    case RequestError::Kind::kCancelled:
      code = grpc::StatusCode::CANCELLED;
      break;
    case RequestError::Kind::kDeadlineExceeded:
      code = grpc::StatusCode::DEADLINE_EXCEEDED;
      break;
  }
  std::string message = error.message;
  if (message.size() > kMaxStatusMessageBytes) {
    message.resize(kMaxStatusMessageBytes - 3);
    message += "...";
  }
  if (error.violations == nullptr || error.violations->empty()) return grpc::Status(code, message);

  // As grpc/grpc examples/cpp/error_details: a google.rpc.Status whose
  // details hold the BadRequest, serialized into the trailer.
  google::rpc::BadRequest bad_request;
  std::size_t bytes = 0;
  std::size_t listed = 0;
  for (const Violation& v : error.violations->kept()) {
    bytes += v.field.size() + v.description.size();
    if (bytes > kMaxViolationBytes || listed == kMaxListedViolations) break;
    google::rpc::BadRequest::FieldViolation* fv = bad_request.add_field_violations();
    fv->set_field(v.field);
    fv->set_description(v.description);
    ++listed;
  }
  const std::size_t more = error.violations->total() - listed;
  if (more > 0) {
    google::rpc::BadRequest::FieldViolation* fv = bad_request.add_field_violations();
    fv->set_field("...");
    fv->set_description(std::to_string(more) + " more violations not listed");
  }
  google::rpc::Status details;
  details.set_code(static_cast<int>(code));
  details.set_message(message);
  details.add_details()->PackFrom(bad_request);
  return grpc::Status(code, message, details.SerializeAsString());
}

}  // namespace collide::server
