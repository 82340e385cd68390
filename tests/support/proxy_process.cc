#include "support/proxy_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/server_process.h"
#include "support/wait_for.h"

namespace collide::testing {
namespace {

sockaddr_in Loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream s(line);
  for (std::string field; std::getline(s, field, ',');) fields.push_back(field);
  return fields;
}

}  // namespace

PortReservation::PortReservation() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
  const int on = 1;
  sockaddr_in addr = Loopback(0);
  socklen_t len = sizeof(addr);
  if (setsockopt(fd_, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) == 0 &&
      bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port_ = ntohs(addr.sin_port);
  }
}

void PortReservation::Release() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

std::string HttpGet(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  timeval tv{2, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  sockaddr_in addr = Loopback(port);
  std::string response;
  const std::string request = "GET " + path + " HTTP/1.0\r\n\r\n";
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
    char buffer[4096];
    for (ssize_t n; (n = recv(fd, buffer, sizeof(buffer), 0)) > 0;) response.append(buffer, n);
  }
  close(fd);
  const std::size_t head_end = response.find("\r\n\r\n");
  if (head_end == std::string::npos || response.find(" 200 ") != response.find(' ')) return "";
  std::string head = response.substr(0, head_end);
  std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string body = response.substr(head_end + 4);
  if (head.find("transfer-encoding: chunked") == std::string::npos) return body;
  // Chunked (HAProxy answers HTTP/1.1 even to 1.0): hex size CRLF data CRLF ... 0 CRLF.
  std::string joined;
  for (std::size_t at = 0;;) {
    const std::size_t line_end = body.find("\r\n", at);
    if (line_end == std::string::npos) return "";
    const std::size_t size = std::stoul(body.substr(at, line_end - at), nullptr, 16);
    if (size == 0) return joined;
    if (line_end + 2 + size > body.size()) return "";
    joined += body.substr(line_end + 2, size);
    at = line_end + 2 + size + 2;
  }
}

std::string RenderProxyConfig(const std::string& text, int listen_port, int monitor_port,
                              const std::vector<int>& replica_ports) {
  static const std::regex kGrpcBind(R"(^(\s*bind )(:50051)( .*)?$)");
  static const std::regex kMonitorBind(R"(^(\s*bind )(:8404)( .*)?$)");
  static const std::regex kServer(R"re(^(\s*server collide-(\d+) )"[^"]+"(.*)$)re");
  std::stringstream in(text), out;
  int grpc_binds = 0, monitor_binds = 0;
  std::set<std::size_t> slots;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kGrpcBind)) {
      line = m[1].str() + "127.0.0.1:" + std::to_string(listen_port) + m[3].str();
      ++grpc_binds;
    } else if (std::regex_match(line, m, kMonitorBind)) {
      line = m[1].str() + "127.0.0.1:" + std::to_string(monitor_port) + m[3].str();
      ++monitor_binds;
    } else if (std::regex_match(line, m, kServer)) {
      const std::size_t slot = std::stoul(m[2].str());
      slots.insert(slot);
      if (slot >= replica_ports.size()) continue;
      line = m[1].str() + "127.0.0.1:" + std::to_string(replica_ports[slot]) + m[3].str();
    }
    out << line << "\n";
  }
  if (grpc_binds != 1 || monitor_binds != 1 || slots.size() < replica_ports.size()) return "";
  return out.str();
}

std::string Describe(const std::map<std::string, std::string>& states) {
  std::string text;
  for (const auto& [name, state] : states) text += (text.empty() ? "" : " ") + name + "=" + state;
  return text;
}

ProxyProcess::ProxyProcess(const std::string& haproxy_bin, const std::string& config_path,
                           const std::vector<int>& replica_ports)
    : config_(TempPath("haproxy-cfg")), log_(TempPath("haproxy-log")) {
  PortReservation listen, monitor;  // held until haproxy has bound them.
  port_ = listen.port();
  monitor_port_ = monitor.port();
  const std::string rendered = RenderProxyConfig(ReadFile(config_path), port_, monitor_port_, replica_ports);
  std::ofstream(config_) << rendered;
  if (rendered.empty() || haproxy_bin.empty()) {
    port_ = 0;
    std::ofstream(log_) << (haproxy_bin.empty() ? "haproxy not found: run scripts/install-deps.sh\n"
                                                : "could not render " + config_path + "\n");
    return;
  }
  // -db: stay in the foreground (a child the test can kill and reap).
  pid_ = Spawn({haproxy_bin, "-db", "-f", config_}, log_, log_ + ".err");
  bool exited = false;
  const bool up = WaitFor(
      [&] {
        exited = waitpid(pid_, nullptr, WNOHANG) == pid_;
        return exited || !HttpGet(monitor_port_, "/healthz").empty();
      },
      kHungAfter, std::chrono::milliseconds(20));
  if (!up || exited) port_ = 0;
}

ProxyProcess::~ProxyProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  for (const std::string& path : {config_, log_, log_ + ".err"}) unlink(path.c_str());
}

std::string ProxyProcess::log() const { return ReadFile(log_) + ReadFile(log_ + ".err"); }

std::map<std::string, std::string> ProxyProcess::ServerStates() const {
  std::stringstream csv(HttpGet(monitor_port_, "/stats;csv"));
  std::map<std::string, std::string> states;
  std::string line;
  if (!std::getline(csv, line) || line.rfind("# ", 0) != 0) return states;
  const std::vector<std::string> header = SplitCsv(line.substr(2));
  const auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    return header.size();
  };
  const std::size_t proxy = column("pxname"), server = column("svname"), status = column("status");
  while (std::getline(csv, line)) {
    const std::vector<std::string> f = SplitCsv(line);
    if (f.size() > status && f[proxy] == "replicas" && f[server].rfind("collide-", 0) == 0) {
      states[f[server]] = f[status];
    }
  }
  return states;
}

bool ProxyProcess::WaitForStates(const std::function<bool(const std::map<std::string, std::string>&)>& done,
                                 std::chrono::milliseconds timeout) const {
  return WaitFor([&] { return done(ServerStates()); }, timeout, std::chrono::milliseconds(20));
}

}  // namespace collide::testing
