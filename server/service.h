// The collide.v1.CollisionService handlers (gRPC callback API). Each is thin:
// validate and convert the request (convert/), run the batch on the
// BatchRunner, convert the results back; every error goes through
// ToGrpcStatus.
#ifndef COLLIDE_SERVER_SERVICE_H_
#define COLLIDE_SERVER_SERVICE_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "absl/functional/function_ref.h"
#include "collide/v1/collide.grpc.pb.h"
#include "google/protobuf/io/zero_copy_stream.h"
#include "google/protobuf/message_lite.h"
#include "server/admission.h"
#include "server/batch_runner.h"
#include "server/call_executor.h"
#include "server/metrics.h"
#include "server/test_hooks.h"

namespace collide::server {

// Limits and identity the service reports and enforces.
struct ServiceConfig {
  int max_items_per_request = 65536;
  int max_receive_message_bytes = 64 << 20;  // Enforced by gRPC; reported here.
  // Admission (load shedding): a query call arriving while
  // max_concurrent_calls are in flight, or whose items would take the items
  // of the calls in flight past max_items_in_flight, is answered
  // RESOURCE_EXHAUSTED at once. A call is in flight from its handler's start
  // until its status is handed to gRPC, queued or running. 0: no limit.
  int max_concurrent_calls = 64;
  std::int64_t max_items_in_flight = std::int64_t{1} << 17;  // Sizing: docs/operations.md, "Memory".
  // Threads that run admitted multi-chunk calls (CallExecutor).
  int call_threads = 2;
  // Tests only (TestHooks::before_posted_call).
  TestHooks hooks;
  std::string version;
  std::string replica;  // "<hostname>:<pid>".
  // Where every answered call is counted (--metrics_port); none: not counted.
  Metrics* metrics = nullptr;
};

// How a call in progress may end early: is_cancelled() is polled between
// chunks of the batch, and the batch stops once `deadline` has passed.
struct CallControl {
  absl::FunctionRef<bool()> is_cancelled;
  std::chrono::system_clock::time_point deadline = std::chrono::system_clock::time_point::max();
};

// The whole handling of one request, exactly as the service answers it, with
// no gRPC call (the service's handlers and the request fuzzer call these):
// the item limit, validation and conversion (convert/), the unsupported-pair
// check, the batch on `runner`, and the response or the error status
// (ToGrpcStatus). `items` receives the request's item count.
grpc::Status HandleRequest(const v1::QueryPairsRequest& request, v1::QueryPairsResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items);
grpc::Status HandleRequest(const v1::QueryPairsPackedRequest& request, v1::QueryPairsPackedResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items);
grpc::Status HandleRequest(const v1::CastRaysRequest& request, v1::CastRaysResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items);
grpc::Status HandleRequest(const v1::CastRaysPackedRequest& request, v1::CastRaysPackedResponse* response,
                           const ServiceConfig& config, BatchRunner& runner, const CallControl& control,
                           std::size_t& items);

// The parse step of every RPC's request bytes (the service's handlers, the
// request fuzzer): OK, or INVALID_ARGUMENT naming the message type and the
// byte count. `size` is the bytes' length, for the message.
grpc::Status ParseRequest(google::protobuf::io::ZeroCopyInputStream& bytes, std::size_t size,
                          google::protobuf::MessageLite& request);
// The same on a call's request: first CheckRequestEncoding (a compressed
// request is UNIMPLEMENTED naming the accepted encodings), then the parse.
grpc::Status ParseRequest(const grpc::ByteBuffer& bytes, google::protobuf::MessageLite& request);

// The readable QueryPairs on its wire bytes, as the service answers it: a
// request in the common form (convert/readable_wire.h) is decoded straight
// from `request` and its response written as bytes into `response`; every
// other request is parsed by protobuf and answered by HandleRequest above, so
// the answer is always HandleRequest's on the parsed request (bytes protobuf
// cannot parse: INVALID_ARGUMENT). `response` holds the serialized
// QueryPairsResponse when the status is OK.
grpc::Status HandleQueryPairsBytes(std::span<const std::uint8_t> request, std::string& response,
                                   const ServiceConfig& config, BatchRunner& runner,
                                   const CallControl& control, std::size_t& items);

// Every method is served raw (bytes in, bytes out). QueryPairs so that its
// common case skips protobuf's message objects (HandleQueryPairsBytes); the
// others parse with ParseRequest into pooled arena messages, so that bytes
// that do not parse are INVALID_ARGUMENT with a description: gRPC's generated
// handlers answer a failed parse UNIMPLEMENTED with an empty message, the
// code the proto reserves for unsupported shape pairs.
using CollisionServiceBase = v1::CollisionService::WithRawCallbackMethod_QueryPairs<
    v1::CollisionService::WithRawCallbackMethod_QueryPairsPacked<
        v1::CollisionService::WithRawCallbackMethod_CastRays<
            v1::CollisionService::WithRawCallbackMethod_CastRaysPacked<
                v1::CollisionService::WithRawCallbackMethod_GetServerInfo<
                    v1::CollisionService::CallbackService>>>>>;

class CollisionService final : public CollisionServiceBase {
 public:
  // `runner` must outlive the service.
  CollisionService(ServiceConfig config, BatchRunner& runner);
  ~CollisionService() override;

  grpc::ServerUnaryReactor* QueryPairs(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* QueryPairsPacked(grpc::CallbackServerContext* context,
                                             const grpc::ByteBuffer* request,
                                             grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CastRays(grpc::CallbackServerContext* context, const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CastRaysPacked(grpc::CallbackServerContext* context,
                                           const grpc::ByteBuffer* request,
                                           grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;

  // Admitted calls not answered yet (the metrics' in-flight gauge).
  int calls_in_flight() const { return admission_.calls_in_flight(); }
  // The server's admission limits, which the world service shares.
  Admission& admission() { return admission_; }

 private:
  struct Allocators;
  class CallReactor;

  // Runs a decoded request of `items` items (all the steps after decoding
  // are the same for every method) and records counters, metrics and the
  // access log; `start` is when the call's handler began.
  template <typename Request, typename Response>
  grpc::Status Serve(const char* method, grpc::CallbackServerContext* context, const Request& request,
                     Response* response, std::chrono::steady_clock::time_point start);
  // Counts a call answered without running (shed, unparseable) or GetServerInfo.
  void Count(const char* method, const grpc::Status& status, std::chrono::steady_clock::time_point start);
  // Admission of a call of `items` items, then serve() (which returns the
  // call's status) on this gRPC thread, or on the CallExecutor when `post`
  // (more than a chunk of work).
  template <typename ServeFn>
  grpc::ServerUnaryReactor* Dispatch(const char* method, grpc::CallbackServerContext* context,
                                     std::size_t items, bool post, ServeFn serve);
  // The whole body of each typed query RPC: ParseRequest into a holder of
  // `allocator`, then Dispatch of Serve (posted for a batch of more than one
  // chunk) and the response's serialization into `response`.
  template <typename Allocator>
  grpc::ServerUnaryReactor* ServeUnary(const char* method, grpc::CallbackServerContext* context,
                                       const grpc::ByteBuffer* request, grpc::ByteBuffer* response,
                                       Allocator& allocator);

  ServiceConfig config_;
  BatchRunner& runner_;
  std::unique_ptr<Allocators> allocators_;
  std::atomic<std::int64_t> requests_served_{0};
  std::atomic<std::int64_t> items_served_{0};
  Admission admission_;
  CallExecutor executor_;  // Last: destroyed (drained) first.
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_SERVICE_H_
