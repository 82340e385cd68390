// Raw HTTP/2 (RFC 9113) and HPACK (RFC 7541) bytes for tests that play a
// hostile client on a plain socket: frames are built by hand so that a test
// can send what no well-behaved library would (streams past the limit,
// resets right after the headers, a header of megabytes). Loopback only.
#ifndef COLLIDE_TESTS_SUPPORT_H2_FRAMES_H_
#define COLLIDE_TESTS_SUPPORT_H2_FRAMES_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace collide::testing::h2 {

enum FrameType : std::uint8_t {
  kData = 0,
  kHeaders = 1,
  kRstStream = 3,
  kSettings = 4,
  kPing = 6,
  kGoAway = 7,
  kContinuation = 9
};
enum Flags : std::uint8_t { kEndStream = 1, kAck = 1, kEndHeaders = 4 };
enum ErrorCode : std::uint32_t { kCancel = 8 };

// The client connection preface followed by an empty SETTINGS frame.
std::string Preface();
std::string Frame(FrameType type, std::uint8_t flags, std::uint32_t stream, std::string_view payload);
std::string RstStream(std::uint32_t stream, std::uint32_t error_code);
// An HPACK integer with an n-bit prefix whose high bits are `first_bits`
// (RFC 7541 5.1).
std::string HpackInteger(std::uint64_t value, int prefix_bits, std::uint8_t first_bits);
// A header field as a literal without indexing, new name, no Huffman coding
// (RFC 7541 6.2.2): any length.
std::string HpackLiteral(std::string_view name, std::string_view value);
// The header block of a gRPC call to `path` (POST, http, content-type
// application/grpc, te trailers), plus `collide-world: world` when not empty.
std::string GrpcRequestHeaders(std::string_view path, std::string_view world = "");

// A TCP connection to 127.0.0.1:port (-1 on failure, errno set).
int ConnectLoopback(int port);
// Sends all of `bytes`; false once the peer has closed or reset.
bool SendAll(int fd, std::string_view bytes);
// True when the peer has closed or reset the connection, waiting up to
// `within` for it (reading and dropping whatever it sends).
bool PeerClosed(int fd, std::chrono::milliseconds within);
// Sends a PING and reads (dropping the rest) until the peer acknowledges it,
// waiting up to `within`: the peer has then processed every frame sent
// before it. False on close or timeout.
bool PingAcked(int fd, std::chrono::milliseconds within);

}  // namespace collide::testing::h2

#endif  // COLLIDE_TESTS_SUPPORT_H2_FRAMES_H_
