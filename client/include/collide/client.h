// C++ client of the collide.v1 CollisionService: core types in (Shape,
// QueryLevel, Ray), absl::StatusOr out, no gRPC or protobuf in this header.
//
//   auto client = collide::Client::Create("127.0.0.1:50051");
//   if (!client.ok()) return client.status();
//   std::vector<collide::ShapePair> pairs = {
//       {collide::Sphere{{0, 0, 0}, 1}, collide::Sphere{{1.5, 0, 0}, 1}}};
//   absl::StatusOr<std::vector<collide::PairResult>> results =
//       client->QueryPairs(collide::QueryLevel::kContact, pairs);
//   if (!results.ok()) std::cerr << collide::DescribeStatus(results.status());
//
// Every RPC of the service is idempotent, so the channel retries UNAVAILABLE
// (server starting, draining, or a connection reset) and CANCELLED (what a
// shutting-down gRPC server answers to calls it never started; this client
// never cancels on its own) up to ClientOptions::max_attempts times with
// exponential backoff of 10 ms to 1 s, inside the call's deadline. Other errors come back at once; an
// INVALID_ARGUMENT carries the server's google.rpc.BadRequest, which
// FieldViolations() and DescribeStatus() read.
//
// A Client is cheap to move, and thread-safe: share one between threads (its
// channel multiplexes their calls over the same connections).
#ifndef COLLIDE_CLIENT_H_
#define COLLIDE_CLIENT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/validate.h"

namespace google::protobuf {
class Message;
}

namespace grpc {
class Channel;
}

namespace collide {

enum class QueryMethod;  // client_proto.h

namespace v1 {
class QueryPairsRequest;
class QueryPairsResponse;
class QueryPairsPackedRequest;
class QueryPairsPackedResponse;
class CastRaysRequest;
class CastRaysResponse;
class CastRaysPackedRequest;
class CastRaysPackedResponse;
class GetServerInfoRequest;
class ServerInfo;
}  // namespace v1

// One pair of a readable batch: the query is between a and b, in that order.
// A ConvexHull's vertices must outlive the call.
struct ShapePair {
  Shape a;
  Shape b;
};

// One cast of a readable ray batch.
struct ShapeRay {
  Ray ray;
  Shape shape;
};

struct ClientOptions {
  // Deadline of every call, from the moment it starts (retries included).
  absl::Duration deadline = absl::Seconds(30);
  // Spread calls over every address the target resolves to (gRPC's
  // round_robin policy); off means pick_first (one connection).
  bool round_robin = false;
  // Attempts per call when the server answers UNAVAILABLE or CANCELLED (1
  // disables retries; gRPC caps it at 5).
  int max_attempts = 5;
  // Largest response accepted, bytes; -1 is unlimited. A 4096-pair CONTACT
  // batch answers in about 0.4 MB.
  int max_receive_message_bytes = -1;

  // Bearer token sent as "authorization: Bearer <token>" metadata on every
  // call (health checks included, which the server does not require); "" =
  // none. Sent over plaintext too: use TLS beyond a trusted network.
  std::string token;
  // TLS instead of plaintext. Also implied by any tls_* field below.
  bool tls = false;
  // PEM CA bundle the server's certificate must chain to; "" = the system's
  // roots (gRPC's default).
  std::string tls_ca_file;
  // PEM client certificate chain and key, for servers that require mutual
  // TLS; both or neither.
  std::string tls_cert_file;
  std::string tls_key_file;
  // Name the server's certificate must carry instead of the target's host
  // (e.g. when dialling an IP address); "" = the target's host.
  std::string tls_server_name;
};

// What GetServerInfo reports about the replica that answered.
struct ServerInfo {
  std::string version;
  std::string replica;  // "<hostname>:<pid>".
  int max_items_per_request = 0;
  int max_receive_message_bytes = 0;
  int worker_threads = 0;
  std::int64_t requests_served = 0;
  std::int64_t items_served = 0;
};

class Client {
 public:
  // `target` is a gRPC target: "127.0.0.1:50051", "localhost:50051",
  // "dns:///host:50051", "ipv4:10.0.0.1:50051,10.0.0.2:50051", or a plain
  // comma-separated list of IPv4 "host:port" addresses (made an ipv4: target;
  // combine with round_robin to use them all). No connection is made until
  // the first call. Fails with INVALID_ARGUMENT on an empty target or bad
  // options.
  static absl::StatusOr<Client> Create(std::string_view target, const ClientOptions& options = {});

  Client(Client&&) noexcept;
  Client& operator=(Client&&) noexcept;
  ~Client();

  // Pair queries, any mix of shape kinds: result i answers pairs[i].
  absl::StatusOr<std::vector<PairResult>> QueryPairs(QueryLevel level, std::span<const ShapePair> pairs);

  // The packed fast path: pair i is (a[i], b[i]) where shape i of a side is
  // the `stride(kind)` doubles starting at i * stride, laid out as the
  // proto's PackedShapeKind says (an Obb is center, quaternion w x y z,
  // half extents: 10 doubles). ConvexHull has no packed form
  // (INVALID_ARGUMENT). Sizes are checked by the server.
  absl::StatusOr<std::vector<PairResult>> QueryPairsPacked(QueryLevel level, ShapeKind kind_a,
                                                           std::span<const double> a, ShapeKind kind_b,
                                                           std::span<const double> b);

  // Ray casts: hit i answers casts[i].
  absl::StatusOr<std::vector<RayHit>> CastRays(std::span<const ShapeRay> casts);

  // Packed ray casts: 7 doubles per ray (origin, direction, max_distance,
  // +infinity for unbounded), one packed shape of `kind` per ray.
  absl::StatusOr<std::vector<RayHit>> CastRaysPacked(std::span<const double> rays, ShapeKind kind,
                                                     std::span<const double> shapes);

  // The standard grpc.health.v1 check of the whole server: true when it
  // answers SERVING, false for NOT_SERVING (draining) or UNKNOWN; an error
  // when it cannot be reached within `timeout` (no retries: a probe wants the
  // current answer).
  absl::StatusOr<bool> Health(absl::Duration timeout = absl::Seconds(1));

  absl::StatusOr<ServerInfo> GetServerInfo();

  // The target the channel was created with (after list expansion).
  const std::string& target() const;

 private:
  // The calls on wire messages (client_proto.h).
  friend absl::Status CallQueryPairs(Client&, const v1::QueryPairsRequest&, v1::QueryPairsResponse&);
  friend absl::Status CallQueryPairsPacked(Client&, const v1::QueryPairsPackedRequest&,
                                           v1::QueryPairsPackedResponse&);
  friend absl::Status CallCastRays(Client&, const v1::CastRaysRequest&, v1::CastRaysResponse&);
  friend absl::Status CallCastRaysPacked(Client&, const v1::CastRaysPackedRequest&,
                                         v1::CastRaysPackedResponse&);
  friend absl::Status CallGetServerInfo(Client&, const v1::GetServerInfoRequest&, v1::ServerInfo&);
  friend absl::Status CallSerialized(Client&, QueryMethod, const std::string&, google::protobuf::Message&);
  // The channel and options, for WorldClient's sharing them (src/client_internals.h).
  friend struct ClientInternals;

  struct Impl;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Number of doubles per shape of `kind` in the packed encoding, 0 for
// ConvexHull (no packed form).
int PackedStride(ShapeKind kind);

// Appends the packed encoding of `shape` (PackedStride(KindOf(shape))
// doubles; an Obb's rotation as its unit quaternion) to `out`. Returns false
// and appends nothing for a ConvexHull.
bool AppendPacked(const Shape& shape, std::vector<double>& out);

// The field violations of a failed call's google.rpc.BadRequest (the
// server's INVALID_ARGUMENT and UNIMPLEMENTED errors carry one), in the
// server's order: field paths such as "pairs[3].b.capsule.radius". Empty when
// the status has none.
std::vector<Violation> FieldViolations(const absl::Status& status);

// A status for people: "INVALID_ARGUMENT: <message>" followed by one line per
// field violation, "  pairs[3].b.capsule.radius: must be >= 0".
std::string DescribeStatus(const absl::Status& status);

}  // namespace collide

#endif  // COLLIDE_CLIENT_H_
