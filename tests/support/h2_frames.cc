#include "support/h2_frames.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace collide::testing::h2 {

using Clock = std::chrono::steady_clock;

std::string Preface() { return std::string("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") + Frame(kSettings, 0, 0, ""); }

std::string Frame(FrameType type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
  const std::size_t n = payload.size();
  std::string frame = {static_cast<char>(n >> 16),
                       static_cast<char>(n >> 8),
                       static_cast<char>(n),
                       static_cast<char>(type),
                       static_cast<char>(flags),
                       static_cast<char>((stream >> 24) & 0x7F),
                       static_cast<char>(stream >> 16),
                       static_cast<char>(stream >> 8),
                       static_cast<char>(stream)};
  frame.append(payload);
  return frame;
}

std::string RstStream(std::uint32_t stream, std::uint32_t error_code) {
  const std::string code = {static_cast<char>(error_code >> 24), static_cast<char>(error_code >> 16),
                            static_cast<char>(error_code >> 8), static_cast<char>(error_code)};
  return Frame(kRstStream, 0, stream, code);
}

std::string HpackInteger(std::uint64_t value, int prefix_bits, std::uint8_t first_bits) {
  const std::uint64_t max_prefix = (1u << prefix_bits) - 1;
  if (value < max_prefix) return std::string(1, static_cast<char>(first_bits | value));
  std::string out(1, static_cast<char>(first_bits | max_prefix));
  for (value -= max_prefix; value >= 128; value >>= 7) out += static_cast<char>((value & 0x7F) | 0x80);
  out += static_cast<char>(value);
  return out;
}

std::string HpackLiteral(std::string_view name, std::string_view value) {
  std::string out(1, '\0');  // literal without indexing, new name.
  out += HpackInteger(name.size(), 7, 0);
  out.append(name);
  out += HpackInteger(value.size(), 7, 0);
  out.append(value);
  return out;
}

std::string GrpcRequestHeaders(std::string_view path, std::string_view world) {
  // Static table (RFC 7541 appendix A): 3 = :method POST, 6 = :scheme http.
  std::string block = "\x83\x86";
  block += HpackLiteral(":path", path) + HpackLiteral(":authority", "collide") +
           HpackLiteral("content-type", "application/grpc") + HpackLiteral("te", "trailers");
  if (!world.empty()) block += HpackLiteral("collide-world", world);
  return block;
}

int ConnectLoopback(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;  // errno says why (EMFILE: the test's open-files limit).
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

bool SendAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool PeerClosed(int fd, std::chrono::milliseconds within) {
  const Clock::time_point end = Clock::now() + within;
  char buffer[16384];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0))) <= 0) return false;
    const ssize_t n = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return true;
  }
}

bool PingAcked(int fd, std::chrono::milliseconds within) {
  constexpr std::string_view kOpaque = "collide!";  // PING payload: 8 bytes (RFC 9113 6.7).
  if (!SendAll(fd, Frame(kPing, 0, 0, kOpaque))) return false;
  const Clock::time_point end = Clock::now() + within;
  std::string bytes;
  char buffer[16384];
  for (;;) {
    // Whole frames: a 9-byte header (24-bit length, type, flags, stream),
    // then the payload.
    while (bytes.size() >= 9) {
      const std::size_t length = (static_cast<std::uint8_t>(bytes[0]) << 16) |
                                 (static_cast<std::uint8_t>(bytes[1]) << 8) |
                                 static_cast<std::uint8_t>(bytes[2]);
      if (bytes.size() < 9 + length) break;
      if (bytes[3] == kPing && (bytes[4] & kAck) != 0 && bytes.compare(9, length, kOpaque) == 0) return true;
      bytes.erase(0, 9 + length);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::max<std::int64_t>(left.count(), 0))) <= 0) return false;
    const ssize_t n = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) return false;
    if (n > 0) bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace collide::testing::h2
