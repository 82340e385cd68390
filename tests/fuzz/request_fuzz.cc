// libFuzzer target over the service's request path, without gRPC: the first
// byte picks the request type (QueryPairs, QueryPairsPacked, CastRays,
// CastRaysPacked; low two bits), the rest is parsed as that message's wire
// bytes (what gRPC hands the handler) by collide::server::ParseRequest, the
// parse step of every handler, which must agree with protobuf and answer
// bytes that do not parse INVALID_ARGUMENT naming the message type (never
// UNIMPLEMENTED, which gRPC's own handlers gave). A parsed request goes through
// collide::server::HandleRequest, the function the service's handlers call:
// limits, validation and conversion (convert/), the core, and the response or
// the error status (ToGrpcStatus). Each input must end in one of:
//   OK:  one result per item, no NaN anywhere in the response;
//   INVALID_ARGUMENT / UNIMPLEMENTED: a google.rpc.BadRequest with at least
//        one violation, every field path well-formed (proto field names with
//        [index] suffixes, indices inside the request's arrays, or the final
//        "..." count entry);
//   RESOURCE_EXHAUSTED: a non-empty message naming the limit.
// QueryPairs inputs also go through HandleQueryPairsBytes, the served path,
// which must answer exactly as HandleRequest on the parsed request.
// Anything else aborts, which libFuzzer reports as a crash.
//
// Seeds: tests/fuzz/corpus/request_fuzz/, made by tests/fuzz/make_request_seeds.sh.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <regex>
#include <string>
#include <string_view>

#include "collide/v1/collide.pb.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "server/batch_runner.h"
#include "server/service.h"
#include "tests/fuzz/request_parse_check.h"

namespace collide::server {
namespace {

[[noreturn]] void Fail(const std::string& what, const grpc::Status& status) {
  std::fprintf(stderr, "request_fuzz: invariant violated: %s (status %d: %s)\n", what.c_str(),
               static_cast<int>(status.error_code()), status.error_message().c_str());
  std::abort();
}

// One runner for the whole run, as one server has; two threads so the
// batch split is exercised too.
BatchRunner& Runner() {
  static BatchRunner* runner = new BatchRunner(2);
  return *runner;
}

ServiceConfig Config() {
  ServiceConfig config;
  // Small enough that fuzzed inputs reach the limit now and then.
  config.max_items_per_request = 512;
  return config;
}

// The top-level repeated fields of each request and their sizes, to check the
// indices a violation path names.
std::size_t TopLevelSize(const v1::QueryPairsRequest& r, std::string_view field) {
  return field == "pairs" ? r.pairs_size() : 0;
}
std::size_t TopLevelSize(const v1::QueryPairsPackedRequest& r, std::string_view field) {
  if (field == "a.data") return r.a().data_size();
  if (field == "b.data") return r.b().data_size();
  return 0;
}
std::size_t TopLevelSize(const v1::CastRaysRequest& r, std::string_view field) {
  return field == "casts" ? r.casts_size() : 0;
}
std::size_t TopLevelSize(const v1::CastRaysPackedRequest& r, std::string_view field) {
  if (field == "rays") return r.rays_size();
  if (field == "shapes.data") return r.shapes().data_size();
  return 0;
}

// "name(.name)*" with optional "[index]" after any name: pairs[3].b.capsule.radius.
const std::regex& PathPattern() {
  static const std::regex* pattern = new std::regex(R"(^[a-z_]+(\[[0-9]+\])?(\.[a-z_]+(\[[0-9]+\])?)*$)");
  return *pattern;
}

template <typename Request>
void CheckBadRequest(const Request& request, const grpc::Status& status) {
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) Fail("details are not a google.rpc.Status", status);
  if (details.code() != static_cast<int>(status.error_code())) Fail("details code differs", status);
  int violations = 0;
  for (const auto& any : details.details()) {
    google::rpc::BadRequest bad_request;
    if (!any.UnpackTo(&bad_request)) continue;
    for (const auto& v : bad_request.field_violations()) {
      ++violations;
      const std::string& f = v.field();
      if (v.description().empty()) Fail("empty description for " + f, status);
      if (f == "...") continue;
      if (!std::regex_match(f, PathPattern())) Fail("malformed field path '" + f + "'", status);
      // The first index in the path must lie inside the array it names.
      const std::size_t bracket = f.find('[');
      if (bracket == std::string::npos) continue;
      const std::size_t index = std::strtoull(f.c_str() + bracket + 1, nullptr, 10);
      const std::size_t size = TopLevelSize(request, std::string_view(f).substr(0, bracket));
      if (index >= size) Fail("index out of range in '" + f + "'", status);
    }
  }
  if (violations == 0) Fail("no BadRequest violation listed", status);
}

bool AnyNan(const v1::Vec3& v) { return std::isnan(v.x()) || std::isnan(v.y()) || std::isnan(v.z()); }
template <typename Repeated>
bool AnyNan(const Repeated& values) {
  for (double d : values) {
    if (std::isnan(d)) return true;
  }
  return false;
}

// Checks an OK response: one result per item, no NaN.
void CheckOk(const v1::QueryPairsResponse& r, std::size_t items, const grpc::Status& s) {
  if (static_cast<std::size_t>(r.results_size()) != items) Fail("result count != items", s);
  for (const v1::PairResult& p : r.results()) {
    if (std::isnan(p.distance()) || AnyNan(p.point_a()) || AnyNan(p.point_b()) || AnyNan(p.normal())) {
      Fail("NaN in a pair result", s);
    }
  }
}
void CheckOk(const v1::QueryPairsPackedResponse& r, std::size_t items, const grpc::Status& s) {
  if (static_cast<std::size_t>(r.hit_size()) != items) Fail("hit count != items", s);
  if (AnyNan(r.distance()) || AnyNan(r.point_a()) || AnyNan(r.point_b()) || AnyNan(r.normal())) {
    Fail("NaN in a packed pair result", s);
  }
}
void CheckOk(const v1::CastRaysResponse& r, std::size_t items, const grpc::Status& s) {
  if (static_cast<std::size_t>(r.hits_size()) != items) Fail("hit count != items", s);
  for (const v1::RayHit& h : r.hits()) {
    if (std::isnan(h.distance()) || AnyNan(h.point()) || AnyNan(h.normal())) Fail("NaN in a ray hit", s);
  }
}
void CheckOk(const v1::CastRaysPackedResponse& r, std::size_t items, const grpc::Status& s) {
  if (static_cast<std::size_t>(r.hit_size()) != items) Fail("hit count != items", s);
  if (AnyNan(r.distance()) || AnyNan(r.point()) || AnyNan(r.normal())) Fail("NaN in a packed ray hit", s);
}

template <typename Request, typename Response>
void Run(const std::uint8_t* data, std::size_t size) {
  Request request;
  if (!ParseChecked(data, size, request, Fail)) return;
  Response response;
  std::size_t items = 0;
  const auto never = [] { return false; };
  const grpc::Status status =
      HandleRequest(request, &response, Config(), Runner(), CallControl{never}, items);
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      CheckOk(response, items, status);
      break;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::UNIMPLEMENTED:
      CheckBadRequest(request, status);
      break;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      if (status.error_message().find("--max_items_per_request") == std::string::npos) {
        Fail("RESOURCE_EXHAUSTED without the limit's name", status);
      }
      break;
    default:
      Fail("unexpected status code", status);
  }
}

// The served QueryPairs reads the request's bytes (HandleQueryPairsBytes, with
// its wire fast path): it must answer exactly as HandleRequest does on the
// parsed request (status, message, details, response bytes), and refuse
// bytes protobuf cannot parse with INVALID_ARGUMENT.
void CheckBytesPath(const std::uint8_t* data, std::size_t size) {
  const auto never = [] { return false; };
  std::string bytes_response;
  std::size_t bytes_items = 0;
  const grpc::Status status = HandleQueryPairsBytes({data, size}, bytes_response, Config(), Runner(),
                                                    CallControl{never}, bytes_items);
  v1::QueryPairsRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) {
    if (status.error_code() != grpc::StatusCode::INVALID_ARGUMENT)
      Fail("unparsable bytes not refused", status);
    return;
  }
  v1::QueryPairsResponse response;
  std::size_t items = 0;
  const grpc::Status expected =
      HandleRequest(request, &response, Config(), Runner(), CallControl{never}, items);
  if (status.error_code() != expected.error_code() || status.error_message() != expected.error_message() ||
      status.error_details() != expected.error_details()) {
    Fail("the bytes path's status differs from HandleRequest's: " + expected.error_message(), status);
  }
  if (status.ok() && (bytes_items != items || bytes_response != response.SerializeAsString())) {
    Fail("the bytes path's response differs from HandleRequest's", status);
  }
}

}  // namespace
}  // namespace collide::server

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace collide;
  if (size < 1) return 0;
  switch (data[0] & 3) {
    case 0:
      server::CheckBytesPath(data + 1, size - 1);
      server::Run<v1::QueryPairsRequest, v1::QueryPairsResponse>(data + 1, size - 1);
      break;
    case 1:
      server::Run<v1::QueryPairsPackedRequest, v1::QueryPairsPackedResponse>(data + 1, size - 1);
      break;
    case 2:
      server::Run<v1::CastRaysRequest, v1::CastRaysResponse>(data + 1, size - 1);
      break;
    default:
      server::Run<v1::CastRaysPackedRequest, v1::CastRaysPackedResponse>(data + 1, size - 1);
      break;
  }
  return 0;
}
