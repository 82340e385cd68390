// The parse step that the request fuzzers (request_fuzz, world_fuzz) check on
// every input: collide::server::ParseRequest, the parse of every handler,
// agrees with protobuf on the wire bytes, and answers bytes that do not parse
// INVALID_ARGUMENT naming the message type and the byte count (never
// UNIMPLEMENTED, which gRPC's own handlers gave).
#ifndef COLLIDE_TESTS_FUZZ_REQUEST_PARSE_CHECK_H_
#define COLLIDE_TESTS_FUZZ_REQUEST_PARSE_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "grpcpp/support/status.h"
#include "server/service.h"

namespace collide::server {

// Parses `data` into `request`; true when it parses. A broken invariant goes
// to fail(what, status), which must not return.
template <typename Request, typename Fail>
bool ParseChecked(const std::uint8_t* data, std::size_t size, Request& request, Fail fail) {
  google::protobuf::io::ArrayInputStream stream(data, static_cast<int>(size));
  const grpc::Status parsed = ParseRequest(stream, size, request);
  if (parsed.ok() != Request().ParseFromArray(data, static_cast<int>(size))) {
    fail("ParseRequest disagrees with protobuf", parsed);
  }
  if (!parsed.ok() &&
      (parsed.error_code() != grpc::StatusCode::INVALID_ARGUMENT ||
       parsed.error_message() != "the request is not a " + Request().GetTypeName() + ": its " +
                                     std::to_string(size) + " bytes do not parse")) {
    fail("unparsable bytes not INVALID_ARGUMENT naming the type", parsed);
  }
  return parsed.ok();
}

}  // namespace collide::server

#endif  // COLLIDE_TESTS_FUZZ_REQUEST_PARSE_CHECK_H_
