#include "loopback_floor.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"

namespace collide::cli {
namespace {

// Closes a socket when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

absl::Status Errno(const char* what) {
  return absl::InternalError(absl::StrCat(what, ": ", strerror(errno)));
}

// One byte each way, as gRPC's own small frames go: no Nagle delay.
void NoDelay(int fd) {
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

}  // namespace

absl::StatusOr<std::vector<double>> MeasureLoopbackPingPong(absl::Duration duration) {
  constexpr int kMaxRoundTrips = 200000;
  Fd listener{socket(AF_INET, SOCK_STREAM, 0)};
  if (listener.fd < 0) return Errno("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (bind(listener.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return Errno("bind");
  if (listen(listener.fd, 1) != 0) return Errno("listen");
  if (getsockname(listener.fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return Errno("getsockname");
  Fd client{socket(AF_INET, SOCK_STREAM, 0)};
  if (client.fd < 0) return Errno("socket");
  if (connect(client.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return Errno("connect");
  Fd server{accept(listener.fd, nullptr, nullptr)};
  if (server.fd < 0) return Errno("accept");
  NoDelay(client.fd);
  NoDelay(server.fd);

  // The echo side: returns when the client side closes its end.
  std::jthread echo([fd = server.fd] {
    char byte;
    while (recv(fd, &byte, 1, 0) == 1) {
      if (send(fd, &byte, 1, 0) != 1) return;
    }
  });
  std::vector<double> micros;
  const auto end = std::chrono::steady_clock::now() + absl::ToChronoNanoseconds(duration);
  while (static_cast<int>(micros.size()) < kMaxRoundTrips && std::chrono::steady_clock::now() < end) {
    const char byte = 'p';
    char back;
    const auto t0 = std::chrono::steady_clock::now();
    if (send(client.fd, &byte, 1, 0) != 1 || recv(client.fd, &back, 1, 0) != 1) break;
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  shutdown(client.fd, SHUT_RDWR);  // Ends the echo thread's recv.
  return micros;
}

}  // namespace collide::cli
