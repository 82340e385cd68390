// The C++ client: one gRPC channel configured by ClientOptions (load
// balancing and the UNAVAILABLE retry policy in its service config), and one
// blocking call per method. Core <-> proto conversion is convert/'s; this
// file builds requests, checks that responses have the promised size and
// maps statuses.
#include "collide/client.h"

#include <google/protobuf/arena.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "client_internals.h"
#include "collide/client_proto.h"
#include "collide/v1/collide.grpc.pb.h"
#include "convert/packed.h"
#include "convert/results.h"
#include "convert/shapes.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "rpc_status.h"

namespace collide {

namespace pb = ::collide::v1;

namespace {

// Retries the codes that mean "the server did not run the call":
// UNAVAILABLE (connection refused or reset, server draining) and CANCELLED.
// This client never cancels a call itself, and gRPC does not retry calls the
// application cancels, so a CANCELLED here comes from the server: gRPC C++
// servers answer CANCELLED to calls that arrive while they shut down, before
// any handler ran (grpc/grpc#41785; seen in tests/e2e's SIGTERM test). Every
// RPC of the service is idempotent, so a retry never does harm. Backoff 10 ms
// doubling to 1 s, as in gRPC's retry design (gRFC A6); maxAttempts above 5
// is capped by gRPC.
std::string ServiceConfigJson(const ClientOptions& options) {
  std::string method_config;
  if (options.max_attempts > 1) {
    method_config = absl::StrFormat(
        R"("methodConfig": [{"name": [{"service": "collide.v1.CollisionService"},)"
        // WorldService: the calls that change nothing (a retried CreateWorld
        // or PushFrame could answer ALREADY_EXISTS or FAILED_PRECONDITION for
        // its own first attempt).
        R"( {"service": "collide.v1.WorldService", "method": "GetWorld"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ListWorlds"},)"
        R"( {"service": "collide.v1.WorldService", "method": "QueryWorld"},)"
        R"( {"service": "collide.v1.WorldService", "method": "CastWorldRaysPacked"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ValidateShots"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ValidateShotsPacked"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ValidateMoves"},)"
        R"( {"service": "collide.v1.WorldService", "method": "GetBodies"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ValidateProjectiles"},)"
        R"( {"service": "collide.v1.WorldService", "method": "ValidateMelee"},)"
        R"( {"service": "collide.v1.WorldService", "method": "GetVisibility"}],)"
        R"( "retryPolicy": {"maxAttempts": %d, "initialBackoff": "0.01s", "maxBackoff": "1s",)"
        R"( "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]}}])",
        options.max_attempts);
  }
  const std::string lb = absl::StrFormat(R"("loadBalancingConfig": [{"%s": {}}])",
                                         options.round_robin ? "round_robin" : "pick_first");
  return absl::StrCat("{", lb, method_config.empty() ? "" : ", ", method_config, "}");
}

// "a:1,b:2" (no scheme) -> "ipv4:a:1,b:2", gRPC's syntax for a static list.
std::string ExpandTarget(std::string_view target) {
  if (target.find(',') == std::string_view::npos || target.find(':') == std::string_view::npos) {
    return std::string(target);
  }
  const std::string_view first = target.substr(0, target.find(','));
  // A scheme ends in ':' before any digit of a port ("ipv4:", "dns:///").
  const bool has_scheme = first.starts_with("ipv4:") || first.starts_with("ipv6:") ||
                          first.starts_with("dns:") || first.starts_with("unix:");
  return has_scheme ? std::string(target) : "ipv4:" + std::string(target);
}

absl::StatusOr<std::string> ReadFile(const char* option, const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  if (!in || !(text << in.rdbuf())) {
    return absl::InvalidArgumentError(absl::StrCat("client: ", option, ": cannot read \"", path, "\""));
  }
  return text.str();
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(
    const ClientOptions& o, grpc::ChannelArguments& args) {
  const bool tls = o.tls || !o.tls_ca_file.empty() || !o.tls_cert_file.empty() || !o.tls_key_file.empty() ||
                   !o.tls_server_name.empty();
  if (!tls) return grpc::InsecureChannelCredentials();
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    return absl::InvalidArgumentError("client: tls_cert_file and tls_key_file go together");
  }
  grpc::SslCredentialsOptions ssl;
  if (!o.tls_ca_file.empty()) {
    absl::StatusOr<std::string> ca = ReadFile("tls_ca_file", o.tls_ca_file);
    if (!ca.ok()) return ca.status();
    ssl.pem_root_certs = *std::move(ca);
  }
  if (!o.tls_cert_file.empty()) {
    absl::StatusOr<std::string> cert = ReadFile("tls_cert_file", o.tls_cert_file);
    if (!cert.ok()) return cert.status();
    absl::StatusOr<std::string> key = ReadFile("tls_key_file", o.tls_key_file);
    if (!key.ok()) return key.status();
    ssl.pem_cert_chain = *std::move(cert);
    ssl.pem_private_key = *std::move(key);
  }
  if (!o.tls_server_name.empty()) args.SetSslTargetNameOverride(o.tls_server_name);
  return grpc::SslCredentials(ssl);
}

}  // namespace

struct Client::Impl {
  std::string target;
  ClientOptions options;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::CollisionService::Stub> stub;
  std::unique_ptr<grpc::health::v1::Health::Stub> health;

  // One blocking call of `method` under the options' deadline.
  template <typename Request, typename Response>
  absl::Status Call(grpc::Status (pb::CollisionService::Stub::*method)(grpc::ClientContext*, const Request&,
                                                                       Response*),
                    const Request& request, Response& response) const {
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + options.deadline));
    Authorize(context);
    return FromGrpcStatus((stub.get()->*method)(&context, request, &response));
  }
  void Authorize(grpc::ClientContext& context) const { AddAuthorization(options, context); }
};

void AddAuthorization(const ClientOptions& options, grpc::ClientContext& context) {
  if (!options.token.empty()) context.AddMetadata("authorization", "Bearer " + options.token);
}

std::shared_ptr<grpc::Channel> ClientInternals::Channel(const Client& client) {
  return client.impl_->channel;
}
const ClientOptions& ClientInternals::Options(const Client& client) { return client.impl_->options; }

absl::StatusOr<Client> Client::Create(std::string_view target, const ClientOptions& options) {
  if (target.empty()) return absl::InvalidArgumentError("client: empty target");
  if (options.max_attempts < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("client: max_attempts must be >= 1, got ", options.max_attempts));
  }
  if (options.deadline <= absl::ZeroDuration())
    return absl::InvalidArgumentError("client: deadline must be > 0");
  auto impl = std::make_unique<Impl>();
  impl->target = ExpandTarget(target);
  impl->options = options;
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(ServiceConfigJson(options));
  args.SetMaxReceiveMessageSize(options.max_receive_message_bytes);
  args.SetInt(GRPC_ARG_ENABLE_RETRIES, options.max_attempts > 1 ? 1 : 0);
  // gRPC can only retry a call whose request it still holds; the default
  // 256 KiB buffer would make every large packed batch (4096 OBB pairs are
  // 330 KB) unretriable.
  args.SetInt(GRPC_ARG_PER_RPC_RETRY_BUFFER_SIZE, 64 << 20);
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      MakeChannelCredentials(options, args);
  if (!credentials.ok()) return credentials.status();
  impl->channel = grpc::CreateCustomChannel(impl->target, *credentials, args);
  impl->stub = pb::CollisionService::NewStub(impl->channel);
  impl->health = grpc::health::v1::Health::NewStub(impl->channel);
  return Client(std::move(impl));
}

int PackedStride(ShapeKind kind) { return convert::PackedStride(kind); }

bool AppendPacked(const Shape& shape, std::vector<double>& out) {
  const int stride = convert::PackedStride(KindOf(shape));
  if (stride == 0) return false;
  out.resize(out.size() + stride);
  convert::PackShape(shape, out.data() + out.size() - stride);
  return true;
}

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;
Client::~Client() = default;

const std::string& Client::target() const { return impl_->target; }

absl::Status CallQueryPairs(Client& client, const pb::QueryPairsRequest& request,
                            pb::QueryPairsResponse& response) {
  return client.impl_->Call(&pb::CollisionService::Stub::QueryPairs, request, response);
}

absl::Status CallQueryPairsPacked(Client& client, const pb::QueryPairsPackedRequest& request,
                                  pb::QueryPairsPackedResponse& response) {
  return client.impl_->Call(&pb::CollisionService::Stub::QueryPairsPacked, request, response);
}

absl::Status CallCastRays(Client& client, const pb::CastRaysRequest& request,
                          pb::CastRaysResponse& response) {
  return client.impl_->Call(&pb::CollisionService::Stub::CastRays, request, response);
}

absl::Status CallCastRaysPacked(Client& client, const pb::CastRaysPackedRequest& request,
                                pb::CastRaysPackedResponse& response) {
  return client.impl_->Call(&pb::CollisionService::Stub::CastRaysPacked, request, response);
}

absl::Status CallSerialized(Client& client, QueryMethod method, const std::string& request,
                            google::protobuf::Message& response) {
  static constexpr const char* kPaths[] = {
      "/collide.v1.CollisionService/QueryPairs", "/collide.v1.CollisionService/QueryPairsPacked",
      "/collide.v1.CollisionService/CastRays", "/collide.v1.CollisionService/CastRaysPacked"};
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + client.impl_->options.deadline));
  client.impl_->Authorize(context);
  // The slice borrows `request`, which outlives the call: this function
  // returns only once gRPC has finished it (retries included).
  grpc::Slice slice(request.data(), request.size(), grpc::Slice::STATIC_SLICE);
  const grpc::ByteBuffer request_buffer(&slice, 1);
  grpc::ByteBuffer response_buffer;
  // Completed on a queue this thread polls itself, as gRPC's generated
  // blocking stubs do: a callback would run on a gRPC thread and wake this
  // one, a thread handoff that costs a single-pair call tens of microseconds.
  grpc::CompletionQueue queue;
  grpc::GenericStub stub(client.impl_->channel);
  const std::unique_ptr<grpc::GenericClientAsyncResponseReader> call =
      stub.PrepareUnaryCall(&context, kPaths[static_cast<int>(method)], request_buffer, &queue);
  call->StartCall();
  grpc::Status status;
  call->Finish(&response_buffer, &status, &queue);
  void* tag = nullptr;
  bool ok = false;
  // The call's one event; the deadline bounds the wait.
  if (!queue.Next(&tag, &ok) || !ok)
    status = grpc::Status(grpc::StatusCode::INTERNAL, "client: the call did not complete");
  queue.Shutdown();
  while (queue.Next(&tag, &ok)) {
  }
  if (!status.ok()) return FromGrpcStatus(status);
  if (!grpc::SerializationTraits<google::protobuf::Message>::Deserialize(&response_buffer, &response).ok()) {
    return absl::InternalError("client: the response does not parse as " + response.GetTypeName());
  }
  return absl::OkStatus();
}

absl::Status CallGetServerInfo(Client& client, const pb::GetServerInfoRequest& request,
                               pb::ServerInfo& response) {
  return client.impl_->Call(&pb::CollisionService::Stub::GetServerInfo, request, response);
}

void BuildQueryPairsRequest(QueryLevel level, std::span<const ShapePair> pairs,
                            pb::QueryPairsRequest& request) {
  request.Clear();
  request.set_level(convert::ToProto(level));
  request.mutable_pairs()->Reserve(static_cast<int>(pairs.size()));
  for (const ShapePair& pair : pairs) {
    pb::ShapePair* out = request.add_pairs();
    convert::ToProto(pair.a, out->mutable_a());
    convert::ToProto(pair.b, out->mutable_b());
  }
}

absl::Status BuildQueryPairsPackedRequest(QueryLevel level, ShapeKind kind_a, std::span<const double> a,
                                          ShapeKind kind_b, std::span<const double> b,
                                          pb::QueryPairsPackedRequest& request) {
  const std::optional<pb::PackedShapeKind> packed_a = convert::PackedKindOf(kind_a);
  const std::optional<pb::PackedShapeKind> packed_b = convert::PackedKindOf(kind_b);
  if (!packed_a || !packed_b) {
    return absl::InvalidArgumentError(
        absl::StrCat("client: ", std::string(ShapeKindName(packed_a ? kind_b : kind_a)),
                     " has no packed encoding; use QueryPairs"));
  }
  request.Clear();
  request.set_level(convert::ToProto(level));
  request.mutable_a()->set_kind(*packed_a);
  request.mutable_a()->mutable_data()->Add(a.begin(), a.end());
  request.mutable_b()->set_kind(*packed_b);
  request.mutable_b()->mutable_data()->Add(b.begin(), b.end());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<PairResult>> Client::QueryPairs(QueryLevel level,
                                                           std::span<const ShapePair> pairs) {
  // A readable batch is thousands of small messages: an arena makes their
  // allocation one bump each and their destruction free.
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<pb::QueryPairsRequest>(&arena);
  auto* response = google::protobuf::Arena::CreateMessage<pb::QueryPairsResponse>(&arena);
  BuildQueryPairsRequest(level, pairs, *request);
  if (absl::Status s = CallQueryPairs(*this, *request, *response); !s.ok()) return s;
  if (response->results_size() != static_cast<int>(pairs.size())) {
    return absl::InternalError(absl::StrCat("client: server answered ", response->results_size(),
                                            " results for ", pairs.size(), " pairs"));
  }
  std::vector<PairResult> results;
  results.reserve(pairs.size());
  for (const pb::PairResult& r : response->results()) results.push_back(convert::FromProto(r));
  return results;
}

absl::StatusOr<std::vector<PairResult>> Client::QueryPairsPacked(QueryLevel level, ShapeKind kind_a,
                                                                 std::span<const double> a, ShapeKind kind_b,
                                                                 std::span<const double> b) {
  pb::QueryPairsPackedRequest request;
  if (absl::Status s = BuildQueryPairsPackedRequest(level, kind_a, a, kind_b, b, request); !s.ok()) return s;
  pb::QueryPairsPackedResponse response;
  if (absl::Status s = CallQueryPairsPacked(*this, request, response); !s.ok()) return s;
  const std::size_t n = a.size() / static_cast<std::size_t>(PackedStride(kind_a));
  std::vector<PairResult> results;
  if (!convert::DecodePacked(response, n, results)) {
    return absl::InternalError(absl::StrCat("client: malformed packed response for ", n, " pairs"));
  }
  return results;
}

absl::StatusOr<std::vector<RayHit>> Client::CastRays(std::span<const ShapeRay> casts) {
  google::protobuf::Arena arena;
  auto* request = google::protobuf::Arena::CreateMessage<pb::CastRaysRequest>(&arena);
  auto* response = google::protobuf::Arena::CreateMessage<pb::CastRaysResponse>(&arena);
  request->mutable_casts()->Reserve(static_cast<int>(casts.size()));
  for (const ShapeRay& cast : casts) {
    pb::RayCast* out = request->add_casts();
    convert::ToProto(cast.ray, out->mutable_ray());
    convert::ToProto(cast.shape, out->mutable_shape());
  }
  if (absl::Status s = CallCastRays(*this, *request, *response); !s.ok()) return s;
  if (response->hits_size() != static_cast<int>(casts.size())) {
    return absl::InternalError(absl::StrCat("client: server answered ", response->hits_size(), " hits for ",
                                            casts.size(), " casts"));
  }
  std::vector<RayHit> hits;
  hits.reserve(casts.size());
  for (const pb::RayHit& h : response->hits()) hits.push_back(convert::FromProto(h));
  return hits;
}

absl::StatusOr<std::vector<RayHit>> Client::CastRaysPacked(std::span<const double> rays, ShapeKind kind,
                                                           std::span<const double> shapes) {
  if (PackedStride(kind) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("client: ", std::string(ShapeKindName(kind)), " has no packed encoding; use CastRays"));
  }
  pb::CastRaysPackedRequest request;
  request.mutable_rays()->Add(rays.begin(), rays.end());
  request.mutable_shapes()->set_kind(*convert::PackedKindOf(kind));
  request.mutable_shapes()->mutable_data()->Add(shapes.begin(), shapes.end());
  pb::CastRaysPackedResponse response;
  if (absl::Status s = CallCastRaysPacked(*this, request, response); !s.ok()) return s;
  const std::size_t n = rays.size() / convert::kPackedRayStride;
  std::vector<RayHit> hits;
  if (!convert::DecodePacked(response, n, hits)) {
    return absl::InternalError(absl::StrCat("client: malformed packed response for ", n, " rays"));
  }
  return hits;
}

absl::StatusOr<bool> Client::Health(absl::Duration timeout) {
  grpc::health::v1::HealthCheckRequest request;  // service "": the server as a whole.
  grpc::health::v1::HealthCheckResponse response;
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  impl_->Authorize(context);
  if (grpc::Status s = impl_->health->Check(&context, request, &response); !s.ok()) return FromGrpcStatus(s);
  return response.status() == grpc::health::v1::HealthCheckResponse::SERVING;
}

absl::StatusOr<ServerInfo> Client::GetServerInfo() {
  pb::ServerInfo response;
  if (absl::Status s = CallGetServerInfo(*this, pb::GetServerInfoRequest(), response); !s.ok()) return s;
  return ServerInfo{response.version(),
                    response.replica(),
                    response.max_items_per_request(),
                    response.max_receive_message_bytes(),
                    response.worker_threads(),
                    response.requests_served(),
                    response.items_served()};
}

}  // namespace collide
