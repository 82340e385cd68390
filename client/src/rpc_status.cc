// The edge between gRPC statuses and absl::Status on the client side: the
// code and message carry over as they are, and the google.rpc.Status details
// that gRPC sends in the grpc-status-details-bin trailer become absl payloads
// keyed by their type URL, so callers read them without protobuf.
#include "rpc_status.h"

#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "collide/client.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"

namespace collide {
namespace {

constexpr char kBadRequestTypeUrl[] = "type.googleapis.com/google.rpc.BadRequest";

}  // namespace

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  google::rpc::Status rich;
  const std::string details = status.error_details();
  if (details.empty() || !rich.ParseFromString(details)) rich.Clear();
  // grpc::StatusCode and absl::StatusCode both take their values from
  // google.rpc.Code, so the cast is exact.
  rich.set_code(static_cast<int>(status.error_code()));
  rich.set_message(status.error_message());
  return FromRpcStatus(rich);
}

absl::Status FromRpcStatus(const google::rpc::Status& status) {
  if (status.code() == 0) return absl::OkStatus();
  absl::Status out(static_cast<absl::StatusCode>(status.code()), status.message());
  for (const google::protobuf::Any& any : status.details())
    out.SetPayload(any.type_url(), absl::Cord(any.value()));
  return out;
}

std::vector<Violation> FieldViolations(const absl::Status& status) {
  std::vector<Violation> out;
  const auto payload = status.GetPayload(kBadRequestTypeUrl);  // absl::optional<absl::Cord>.
  google::rpc::BadRequest bad_request;
  if (!payload.has_value() || !bad_request.ParseFromString(std::string(*payload))) return out;
  out.reserve(bad_request.field_violations_size());
  for (const auto& v : bad_request.field_violations()) out.push_back({v.field(), v.description()});
  return out;
}

std::string DescribeStatus(const absl::Status& status) {
  if (status.ok()) return "OK";
  std::string out = absl::StrCat(absl::StatusCodeToString(status.code()), ": ", status.message());
  for (const Violation& v : FieldViolations(status))
    absl::StrAppend(&out, "\n  ", v.field, ": ", v.description);
  return out;
}

}  // namespace collide
