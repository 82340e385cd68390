// The real HAProxy binary in front of collide-server replicas, for tests of
// the shared-pool deployment: deploy/haproxy/haproxy.cfg with only its bind
// addresses and its server slots rewritten to loopback ports, everything
// else (routing, health checks, limits) as shipped.
#ifndef COLLIDE_TESTS_SUPPORT_PROXY_PROCESS_H_
#define COLLIDE_TESTS_SUPPORT_PROXY_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace collide::testing {

// A loopback port held for a server the test starts later: a socket bound
// to it with SO_REUSEPORT and not listening, so that no other socket is given
// the port meanwhile (the ephemeral ports of other tests' connections
// included: ctest runs tests in parallel), while collide-server (gRPC) and
// HAProxy, which set SO_REUSEPORT on their listeners, can still bind it.
// Connections to it are refused until the server listens.
class PortReservation {
 public:
  PortReservation();
  ~PortReservation() { Release(); }
  PortReservation(const PortReservation&) = delete;
  PortReservation& operator=(const PortReservation&) = delete;

  int port() const { return port_; }  // 0 if no port could be reserved.
  void Release();                     // once the server listens.

 private:
  int fd_ = -1;
  int port_ = 0;
};
// A plain HTTP/1.0 GET to 127.0.0.1:port; the body of a 200 answer, "" on
// any failure.
std::string HttpGet(int port, const std::string& path);

// deploy/haproxy/haproxy.cfg (`text`) with the client frontend bound to
// 127.0.0.1:listen_port, the monitor frontend to 127.0.0.1:monitor_port, and
// server slot i (`server collide-<i>`, in every backend) at
// 127.0.0.1:replica_ports[i]; slots past the list are dropped. Fails (empty string) if the file does not have
// the shape this rewriting relies on.
std::string RenderProxyConfig(const std::string& text, int listen_port, int monitor_port,
                              const std::vector<int>& replica_ports);

// "collide-0=UP collide-1=DOWN ..." for failure messages.
std::string Describe(const std::map<std::string, std::string>& states);

class ProxyProcess {
 public:
  // Starts `haproxy_bin` on the rendered `config_path` and waits (up to 10 s)
  // until its monitor answers; port() is 0 if it did not (see log()).
  ProxyProcess(const std::string& haproxy_bin, const std::string& config_path,
               const std::vector<int>& replica_ports);
  ~ProxyProcess();
  ProxyProcess(const ProxyProcess&) = delete;
  ProxyProcess& operator=(const ProxyProcess&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string target() const { return "127.0.0.1:" + std::to_string(port_); }
  std::string log() const;
  // Each server slot's state from the stats page ("UP", "DOWN", "UP 1/2", ...).
  std::map<std::string, std::string> ServerStates() const;
  // Polls ServerStates() until `done` holds or `timeout` passes; true if it held.
  bool WaitForStates(const std::function<bool(const std::map<std::string, std::string>&)>& done,
                     std::chrono::milliseconds timeout) const;

 private:
  std::string config_;
  std::string log_;
  pid_t pid_ = 0;
  int port_ = 0;
  int monitor_port_ = 0;
};

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_PROXY_PROCESS_H_
