#include "server/request_encoding.h"

#include <string>
#include <string_view>

#include "server/status_mapping.h"
#include "server/tsan_annotations.h"

namespace collide::server {
namespace {

// gRPC's own health service (grpc.health.v1) parses its request itself, so a
// compressed check reaches it as the bytes sent and fails to parse
// (INVALID_ARGUMENT "could not parse request"). Its methods take the request
// as a ByteBuffer (gRPC 1.51, src/cpp/server/health/default_health_check_service.cc:
// CallbackUnaryHandler<ByteBuffer, ByteBuffer> for Check, the server-streaming
// one for Watch), which is what the interceptor reads after receiving it.
bool IsHealthMethod(const char* method) {
  return method != nullptr && std::string_view(method).starts_with("/grpc.health.v1.Health/");
}

// Adds grpc-accept-encoding to the response headers; and to the trailers of
// a refusal, because gRPC 1.51 sends a failed call that has no message as
// trailers only (what the gRPC spec asks) and drops the headers' custom
// entries when it does. On the health service's calls it also gives a
// compressed request our refusal (CheckRequestEncoding), as every other
// method does.
class AcceptEncodingInterceptor : public grpc::experimental::Interceptor {
 public:
  // gRPC creates the interceptor on one of its threads and runs each hook
  // point on whichever thread completes that batch, in order: stated for
  // TSan, which does not see gRPC's ordering (a finding under a CPU hog:
  // health_ written at creation, read by the first hook on another thread).
  explicit AcceptEncodingInterceptor(bool health) : health_(health) { TsanRelease(this); }
  // gRPC deletes it (with the call's context) on yet another thread, after
  // the last hook point: the same ordering, stated the same way.
  ~AcceptEncodingInterceptor() override { TsanAcquire(this); }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    TsanAcquire(this);
    using grpc::experimental::InterceptionHookPoints;
    if (health_ && methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE)) {
      if (const auto* request = static_cast<const grpc::ByteBuffer*>(methods->GetRecvMessage())) {
        RequestReader reader(*request);
        refusal_ = CheckRequestEncoding(reader);
      }
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->emplace("grpc-accept-encoding", kAcceptedEncodings);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      if (!refusal_.ok()) methods->ModifySendStatus(refusal_);
      if (!methods->GetSendStatus().ok()) {
        methods->GetSendTrailingMetadata()->emplace("grpc-accept-encoding", kAcceptedEncodings);
      }
    }
    TsanRelease(this);  // Before Proceed: the next hook point may run on another thread.
    methods->Proceed();
  }

 private:
  const bool health_;
  grpc::Status refusal_;  // Not OK: the health request was compressed.
};

class AcceptEncodingFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new AcceptEncodingInterceptor(IsHealthMethod(info->method()));
  }
};

}  // namespace

grpc::Status CheckRequestEncoding(RequestReader& request) {
  const grpc_compression_algorithm algorithm = request.compression();
  if (algorithm == GRPC_COMPRESS_NONE) return grpc::Status::OK;
  const char* name = "unknown";
  grpc_compression_algorithm_name(algorithm, &name);
  return ToGrpcStatus(
      {RequestError::Kind::kUnsupportedEncoding, std::string("the request is compressed with ") + name +
                                                     "; this server accepts grpc-encoding " +
                                                     kAcceptedEncodings + " (uncompressed) only"});
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> AcceptEncodingInterceptorFactory() {
  return std::make_unique<AcceptEncodingFactory>();
}

}  // namespace collide::server
