// What the server does with grpc-encoding (gRPC compression spec,
// doc/compression.md): requests are accepted uncompressed only, and a
// compressed one is refused UNIMPLEMENTED naming the supported encodings,
// with grpc-accept-encoding: identity on every response, the refusal
// included.
//
// gRPC 1.51 cannot say that itself. With only identity enabled it cancels a
// gzip call before any handler with the fixed text "Compression algorithm
// 'gzip' is disabled." in a trailers-only answer that carries no
// grpc-accept-encoding; with gzip enabled its compression filter advertises
// "identity, deflate, gzip". So the server enables every algorithm (the call
// reaches the handler), turns the compression filter off (nothing
// advertised, responses never compressed) and per-message decompression off
// (the handler sees the compressed bytes as sent, bounded by
// max_receive_message_bytes, and never inflates them: a decompression bomb
// costs nothing), and does the refusing and advertising here: the services'
// handlers call CheckRequestEncoding, and the interceptor does it for gRPC's
// own health service.
#ifndef COLLIDE_SERVER_REQUEST_ENCODING_H_
#define COLLIDE_SERVER_REQUEST_ENCODING_H_

#include <memory>

#include "grpc/compression.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "grpcpp/support/server_interceptor.h"
#include "grpcpp/support/status.h"

namespace collide::server {

// The value of grpc-accept-encoding on every response.
inline constexpr char kAcceptedEncodings[] = "identity";

// Reads a request's bytes as a protobuf stream, and tells how they were
// compressed: gRPC keeps the algorithm in the byte buffer it hands over
// (GRPC_COMPRESS_NONE for a message sent as is, whatever grpc-encoding said),
// reached through ProtoBufferReader's protected reader() (gRPC calls it not
// stable across versions; this is 1.51's). A call that sent no message has
// no buffer: the reader's status is not OK and there is nothing compressed.
class RequestReader : public grpc::ProtoBufferReader {
 public:
  explicit RequestReader(const grpc::ByteBuffer& request)
      : grpc::ProtoBufferReader(const_cast<grpc::ByteBuffer*>(&request)) {}
  grpc_compression_algorithm compression() {
    return status().ok() ? reader()->buffer_in->data.raw.compression : GRPC_COMPRESS_NONE;
  }
};

// OK for a message sent uncompressed; else UNIMPLEMENTED "the request is
// compressed with gzip; this server accepts identity (uncompressed) only".
grpc::Status CheckRequestEncoding(RequestReader& request);

// Adds grpc-accept-encoding: identity to every call's response headers (and
// a refusal's trailers), and refuses a compressed grpc.health.v1 request as
// CheckRequestEncoding does.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> AcceptEncodingInterceptorFactory();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_REQUEST_ENCODING_H_
