#include "server/request_encoding.h"

#include <string>

namespace collide::server {
namespace {

// On the response headers; and on the trailers of a refusal, because gRPC
// 1.51 sends a failed call that has no message as trailers only (what the
// gRPC spec asks) and drops the headers' custom entries when it does.
class AcceptEncodingInterceptor : public grpc::experimental::Interceptor {
 public:
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->emplace("grpc-accept-encoding", kAcceptedEncodings);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS) &&
        !methods->GetSendStatus().ok()) {
      methods->GetSendTrailingMetadata()->emplace("grpc-accept-encoding", kAcceptedEncodings);
    }
    methods->Proceed();
  }
};

class AcceptEncodingFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo*) override {
    return new AcceptEncodingInterceptor;
  }
};

}  // namespace

grpc::Status CheckRequestEncoding(RequestReader& request) {
  const grpc_compression_algorithm algorithm = request.compression();
  if (algorithm == GRPC_COMPRESS_NONE) return grpc::Status::OK;
  const char* name = "unknown";
  grpc_compression_algorithm_name(algorithm, &name);
  return {grpc::StatusCode::UNIMPLEMENTED, std::string("the request is compressed with ") + name +
                                               "; this server accepts grpc-encoding " + kAcceptedEncodings +
                                               " (uncompressed) only"};
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> AcceptEncodingInterceptorFactory() {
  return std::make_unique<AcceptEncodingFactory>();
}

}  // namespace collide::server
