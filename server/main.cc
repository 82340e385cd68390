// collide-server: the collide.v1 collision query service.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "server/flags_env.h"
#include "server/logging.h"
#include "server/server.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(std::string, host, "127.0.0.1",
          "Interface to listen on (127.0.0.1: this machine only; 0.0.0.0 or :: for all interfaces).");
ABSL_FLAG(int, port, 50051, "TCP port; 0 picks a free port (the startup line names it).");
ABSL_FLAG(int, worker_threads, static_cast<int>(std::thread::hardware_concurrency()),
          "Threads that share the work of large batches (default: the hardware thread count).");
ABSL_FLAG(int, max_items_per_request, 65536,
          "Most pairs or ray casts per request; more is RESOURCE_EXHAUSTED.");
ABSL_FLAG(int, max_receive_message_bytes, 64 << 20,
          "Largest request message in bytes; larger is RESOURCE_EXHAUSTED.");
ABSL_FLAG(absl::Duration, drain_timeout, absl::Seconds(10),
          "On SIGTERM/SIGINT, how long in-flight calls may run before they are cancelled (e.g. 10s, 500ms).");
ABSL_FLAG(std::string, log_level, "info",
          "trace, debug (adds one access line per request), info, warn or error.");
ABSL_FLAG(std::string, log_format, "text", "text or json (one object per line).");

namespace {

constexpr std::string_view kFlagNames[] = {
    "host",          "port",      "worker_threads", "max_items_per_request", "max_receive_message_bytes",
    "drain_timeout", "log_level", "log_format"};

// Self-pipe: the signal handler only writes the signal number; the main
// thread reads it and shuts down outside signal context.
int g_signal_pipe[2] = {-1, -1};

extern "C" void OnSignal(int signal) {
  const char byte = static_cast<char>(signal);
  const int saved_errno = errno;
  (void)!write(g_signal_pipe[1], &byte, 1);
  errno = saved_errno;
}

bool InstallSignalHandlers() {
  if (pipe2(g_signal_pipe, O_CLOEXEC) != 0) return false;
  struct sigaction action = {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  return sigaction(SIGTERM, &action, nullptr) == 0 && sigaction(SIGINT, &action, nullptr) == 0;
}

int WaitForSignal() {
  char byte = 0;
  while (read(g_signal_pipe[0], &byte, 1) < 0 && errno == EINTR) {
  }
  return byte;
}

}  // namespace

int main(int argc, char** argv) {
  std::string usage =
      "the collide.v1 collision query service (gRPC), with grpc.health.v1 and server "
      "reflection.\n\nEvery flag can also be set from the environment as COLLIDE_<FLAG_NAME_UPPERCASE> (e.g. "
      "COLLIDE_PORT=50052, COLLIDE_LOG_FORMAT=json); a flag given on the command line wins over its "
      "variable.\n\n"
      "Usage: collide-server [--flag=value ...]";
  absl::SetProgramUsageMessage(usage);
  // --help lists this file's flags (absl matches on the binary name by default).
  absl::FlagsUsageConfig usage_config;
  usage_config.contains_help_flags = [](absl::string_view path) {
    return absl::EndsWith(path, "server/main.cc");
  };
  absl::SetFlagsUsageConfig(usage_config);
  if (const absl::Status env = collide::server::ApplyEnvironmentOverrides(kFlagNames); !env.ok()) {
    std::fprintf(stderr, "collide-server: %s\n", std::string(env.message()).c_str());
    return 2;
  }
  absl::ParseCommandLine(argc, argv);
  if (const absl::Status logging =
          collide::server::ConfigureLogging(absl::GetFlag(FLAGS_log_level), absl::GetFlag(FLAGS_log_format));
      !logging.ok()) {
    std::fprintf(stderr, "collide-server: %s\n", std::string(logging.message()).c_str());
    return 2;
  }

  collide::server::Options options;
  options.host = absl::GetFlag(FLAGS_host);
  options.port = absl::GetFlag(FLAGS_port);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  options.max_items_per_request = absl::GetFlag(FLAGS_max_items_per_request);
  options.max_receive_message_bytes = absl::GetFlag(FLAGS_max_receive_message_bytes);
  options.drain_timeout = absl::GetFlag(FLAGS_drain_timeout);

  if (!InstallSignalHandlers()) {
    spdlog::error("cannot install the SIGTERM/SIGINT handlers: errno {}", errno);
    return 1;
  }
  absl::StatusOr<std::unique_ptr<collide::server::Server>> server = collide::server::Server::Start(options);
  if (!server.ok()) {
    spdlog::error("cannot start: {}", server.status().ToString());
    return 1;
  }
  const collide::server::Options& o = (*server)->options();
  spdlog::info(
      "listening on {} (version {}, worker_threads={}, max_items_per_request={}, "
      "max_receive_message_bytes={}, "
      "drain_timeout={}, log_level={}, log_format={})",
      (*server)->address(), COLLIDE_VERSION, o.worker_threads, o.max_items_per_request,
      o.max_receive_message_bytes, absl::FormatDuration(o.drain_timeout), absl::GetFlag(FLAGS_log_level),
      absl::GetFlag(FLAGS_log_format));

  const int signal = WaitForSignal();
  spdlog::info("received signal {}: NOT_SERVING, draining in-flight calls for up to {}", signal,
               absl::FormatDuration(o.drain_timeout));
  (*server)->Shutdown();
  (*server)->Wait();
  spdlog::info("stopped");
  return 0;
}
