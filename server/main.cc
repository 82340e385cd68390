// collide-server: the collide.v1 collision query service.
#include <malloc.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "absl/types/optional.h"
#include "collide/version.h"
#include "server/flags_env.h"
#include "server/listener_watchdog.h"
#include "server/logging.h"
#include "server/malloc_arenas.h"
#include "server/memory_trimmer.h"
#include "server/open_files_limit.h"
#include "server/server.h"
#include "server/token_auth.h"
#include "server/transport_security.h"
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
ABSL_FLAG(int, max_concurrent_calls, 64,
          "Most query calls in flight (queued or running, until the response is sent); a call past it is "
          "answered RESOURCE_EXHAUSTED at once (0: no limit).");
ABSL_FLAG(int64_t, max_items_in_flight, int64_t{1} << 17,
          "Most pairs or casts in the calls in flight; a call that would take them past it is answered "
          "RESOURCE_EXHAUSTED at once (0: no limit; else at least --max_items_per_request).");
ABSL_FLAG(absl::Duration, drain_timeout, absl::Seconds(10),
          "On SIGTERM/SIGINT, how long in-flight calls may run before they are cancelled (e.g. 10s, 500ms); "
          "a server still stopping 1s after that, or given a second signal, exits with status 4 at once.");
ABSL_FLAG(absl::Duration, listener_check_timeout, absl::Seconds(10),
          "Self-check of the listening port: when connections (the check's own included) have waited "
          "unaccepted this long after an accept failed (gRPC then never accepts again), log why and exit "
          "with status 3 so that a supervisor restarts the server; without a failed accept the server is "
          "busy, which is logged and served on (0: no check).");
ABSL_FLAG(std::string, log_level, "info",
          "trace, debug (adds one access line per request), info, warn or error.");
ABSL_FLAG(std::string, log_format, "text", "text or json (one object per line).");

// Security (docs/operations.md, "Security").
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM certificate chain of the server; with --tls_key_file, serve TLS (1.2 or newer) instead of "
          "plaintext.");
ABSL_FLAG(std::string, tls_key_file, "", "PEM private key of --tls_cert_file.");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA bundle; when set, clients must present a certificate signed by it (mutual TLS).");
ABSL_FLAG(absl::optional<bool>, insecure, absl::nullopt,
          "Plaintext permission when no TLS flag is set. Unset (default): plaintext only when --host is "
          "loopback (127.0.0.0/8, ::1, localhost), startup fails otherwise; true: plaintext on any host (TLS "
          "terminated by a mesh or ingress); false: never plaintext.");
ABSL_FLAG(
    std::string, auth_token_file, "",
    "File of bearer tokens, one per line ('#' comments); with COLLIDE_AUTH_TOKENS (comma-separated) they "
    "are the tokens accepted in 'authorization: Bearer <token>'. Any token configured: every call but "
    "grpc.health.v1 needs one, else UNAUTHENTICATED.");

ABSL_FLAG(int, metrics_port, -1,
          "Port of the Prometheus endpoint (plain HTTP GET /metrics) on --host; -1: none, 0: a free one (the "
          "startup log names it). An operator's port: expose it to the scraper only.");

// Transport limits.
ABSL_FLAG(int, max_send_message_bytes, 64 << 20, "Largest response message in bytes.");
ABSL_FLAG(int, max_concurrent_streams, 100, "Most concurrent calls (HTTP/2 streams) per connection.");
ABSL_FLAG(int64_t, resource_quota_bytes, int64_t{256} << 20,
          "gRPC's memory quota for the transport (read buffers, call state), bytes.");
ABSL_FLAG(int, max_threads, 64, "Most threads gRPC may create for its synchronous services (reflection).");
ABSL_FLAG(absl::Duration, handshake_timeout, absl::Seconds(10),
          "A new connection must finish its TLS and HTTP/2 handshake within this duration.");
ABSL_FLAG(absl::Duration, max_connection_idle, absl::Minutes(5),
          "Close a connection with no call for this duration (0 = never).");
ABSL_FLAG(absl::Duration, max_connection_age, absl::Minutes(30),
          "Close any connection after this duration, so clients reconnect and rebalance (0 = never).");
ABSL_FLAG(absl::Duration, max_connection_age_grace, absl::Seconds(30),
          "Time the calls of a connection closed by --max_connection_age get to finish.");
ABSL_FLAG(absl::Duration, min_ping_interval, absl::Seconds(10),
          "Keepalive enforcement: client pings closer together than this duration without data are strikes.");
ABSL_FLAG(int, max_ping_strikes, 2, "Ping strikes (count) after which the connection is closed.");
ABSL_FLAG(int64_t, max_triangles_per_world, 4'000'000,
          "Most triangles in one world's meshes (CreateWorld beyond: RESOURCE_EXHAUSTED).");
ABSL_FLAG(int, max_primitive_statics_per_world, 65536,
          "Most statics that are shapes (not meshes or map files) in one world (CreateWorld beyond: "
          "RESOURCE_EXHAUSTED).");
ABSL_FLAG(int, max_bodies_per_world, 1024, "Most bodies in one world's frame.");
ABSL_FLAG(int, max_parts_per_body, 32, "Most parts (hitboxes) of one body.");
ABSL_FLAG(int, max_history_ticks, 256, "Most frames one world may keep (CreateWorld.history_ticks).");
ABSL_FLAG(int, max_worlds, 64, "Most worlds on this replica.");
ABSL_FLAG(int, max_worlds_per_tenant, 0,
          "Most worlds of one tenant (with token auth, a token's) on this replica; 0 = no cap beyond "
          "--max_worlds.");
ABSL_FLAG(int64_t, world_memory_budget_bytes, int64_t{2} << 30,
          "Heap bytes all worlds together may hold (geometry, BVHs, history), checked before allocating.");
ABSL_FLAG(std::string, maps_dir, "",
          "Directory of the map files (.bsp, .pk3, .glb, .gltf, .obj) CreateWorld may name; empty: none.");
ABSL_FLAG(std::string, audit_dir, "",
          "Directory of the audit trails of worlds created with journal.audit (<tenant>/<world>.audit.bin or "
          ".audit.jsonl, docs/replay.md); empty: journal.audit is FAILED_PRECONDITION.");
ABSL_FLAG(std::string, audit_format, "binary",
          "The audit trail's files: binary (AuditBatch messages, .audit.bin; `collide world audit` prints "
          "them as JSON Lines) or jsonl (JSON Lines, .audit.jsonl: about 4.5 us of server CPU per verdict "
          "against 0.25).");
ABSL_FLAG(int64_t, audit_max_bytes, int64_t{64} << 20,
          "Bytes of one audit trail file; past it the file is rotated (<world>.audit.bin.1, ...).");
ABSL_FLAG(int, audit_max_files, 8,
          "Files one world's audit trail keeps, the current one included; the oldest is removed.");
ABSL_FLAG(std::string, recordings_dir, "",
          "Directory of the match recordings of worlds created with journal.record "
          "(<tenant>/<world>.collide-rec, docs/replay.md); empty: journal.record is FAILED_PRECONDITION.");
ABSL_FLAG(int64_t, recording_max_bytes, int64_t{1} << 30,
          "Bytes of one match recording; at it the recording is closed and the world's later calls are not "
          "recorded.");
ABSL_FLAG(int64_t, tick_streams_memory_bytes, int64_t{64} << 20,
          "Bytes all Tick streams together may hold in messages read but not yet run and answers not yet "
          "written; past it a stream holding any reads no more until they are under (at least 1 MiB).");
ABSL_FLAG(absl::Duration, world_idle_ttl, absl::Minutes(30),
          "A world without a call for this long is evicted (logged); 0 = never.");

namespace {

constexpr std::string_view kFlagNames[] = {"maps_dir",
                                           "audit_dir",
                                           "audit_format",
                                           "audit_max_bytes",
                                           "audit_max_files",
                                           "recordings_dir",
                                           "recording_max_bytes",
                                           "max_triangles_per_world",
                                           "max_primitive_statics_per_world",
                                           "max_bodies_per_world",
                                           "max_parts_per_body",
                                           "max_history_ticks",
                                           "max_worlds",
                                           "max_worlds_per_tenant",
                                           "world_memory_budget_bytes",
                                           "world_idle_ttl",
                                           "tick_streams_memory_bytes",
                                           "host",
                                           "port",
                                           "worker_threads",
                                           "max_items_per_request",
                                           "max_receive_message_bytes",
                                           "drain_timeout",
                                           "log_level",
                                           "log_format",
                                           "tls_cert_file",
                                           "tls_key_file",
                                           "tls_client_ca_file",
                                           "insecure",
                                           "auth_token_file",
                                           "max_send_message_bytes",
                                           "max_concurrent_streams",
                                           "resource_quota_bytes",
                                           "max_threads",
                                           "handshake_timeout",
                                           "max_connection_idle",
                                           "max_connection_age",
                                           "max_connection_age_grace",
                                           "min_ping_interval",
                                           "max_ping_strikes",
                                           "max_concurrent_calls",
                                           "max_items_in_flight",
                                           "listener_check_timeout"};

// At most this many protobuf, and as many gRPC, log lines per second reach
// the log.
constexpr double kLibraryLogLinesPerSecond = 10;

// SIGTERM and SIGINT are blocked before any thread starts, so every thread
// (gRPC's inherit the mask) leaves them pending for the process, and the main
// thread takes them with sigwait: no handler, nothing runs in signal context.
// A handler runs on whichever thread the kernel picks; under ThreadSanitizer,
// which defers a signal to that thread's next intercepted call, a gRPC thread
// asleep on a futex held SIGTERM for good (e2e_test's drain test hung).
bool BlockShutdownSignals(sigset_t& signals) {
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return pthread_sigmask(SIG_BLOCK, &signals, nullptr) == 0;
}

int WaitForSignal(const sigset_t& signals) {
  int signal = 0;
  while (sigwait(&signals, &signal) != 0) {
  }
  return signal;
}

// After --drain_timeout gRPC cancels the calls still running; this is how
// long their handlers then get to return before the process ends anyway.
constexpr absl::Duration kCancelGrace = absl::Seconds(1);
// Exit status of a stop that did not finish within its deadline.
constexpr int kStopOverdueStatus = 4;
// Set once the drain has returned: the deadline's thread then stands down.
std::atomic<bool> g_stopped{false};

// The drain's deadline, kept whatever the calls do: a thread that ends the
// process with status 4 when the drain has not returned `limit` after the
// signal (work gRPC cannot cancel still runs), or at once on a second
// SIGTERM/SIGINT. A clean drain returns from main first and exits 0.
void StartStopDeadline(const sigset_t& signals, absl::Duration limit) {
  std::thread([signals, deadline = absl::Now() + limit, limit] {
    for (;;) {
      if (g_stopped.load()) return;
      const absl::Duration left = deadline - absl::Now();
      if (left <= absl::ZeroDuration()) {
        spdlog::critical(
            "the drain did not finish within {}: exiting with status {} with calls still running",
            absl::FormatDuration(limit), kStopOverdueStatus);
        break;
      }
      const timespec wait = absl::ToTimespec(std::min(left, absl::Milliseconds(200)));
      siginfo_t info{};
      if (sigtimedwait(&signals, &info, &wait) > 0) {
        spdlog::critical("received signal {} while draining: exiting with status {} now", info.si_signo,
                         kStopOverdueStatus);
        break;
      }
    }
    spdlog::default_logger()->flush();
    std::_Exit(kStopOverdueStatus);
  }).detach();
}

}  // namespace

int main(int argc, char** argv) {
  std::string usage =
      "the collide.v1 collision query service (gRPC), with grpc.health.v1 and server "
      "reflection.\n\nEvery flag can also be set from the environment as COLLIDE_<FLAG_NAME_UPPERCASE> (e.g. "
      "COLLIDE_PORT=50052, COLLIDE_LOG_FORMAT=json); a flag given on the command line wins over its "
      "variable.\n\n"
      "Security: plaintext is served only on a loopback --host unless --insecure=true says so explicitly; "
      "--tls_cert_file/--tls_key_file serve TLS 1.2+, --tls_client_ca_file adds mutual TLS, and "
      "--auth_token_file or COLLIDE_AUTH_TOKENS require 'authorization: Bearer <token>' on every call "
      "but grpc.health.v1 (reflection and GetServerInfo included). Compressed requests are refused "
      "UNIMPLEMENTED (only grpc-encoding identity is accepted). See docs/operations.md (Security).\n\n"
      "Usage: collide-server [--flag=value ...] | --version";
  absl::SetProgramUsageMessage(usage);
  sigset_t shutdown_signals;
  if (!BlockShutdownSignals(shutdown_signals)) {
    std::fprintf(stderr, "collide-server: cannot block SIGTERM/SIGINT\n");
    return 1;
  }
  // Keep freed memory for the next call instead of returning it to the kernel:
  // with glibc's defaults a 4096-pair call's buffers (the request's slices,
  // arena blocks, the response) are unmapped or trimmed after each call and
  // faulted in again by the next, ~30 page faults per call (5 s of packed
  // collide bench: ~7,000 page faults with these settings, 91,000 without). Blocks under 32 MB
  // (glibc's largest mmap threshold) come from the heap, which is trimmed
  // only past 64 MB free.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  // --help lists this file's flags (absl matches on the binary name by default).
  absl::FlagsUsageConfig usage_config;
  usage_config.contains_help_flags = [](absl::string_view path) {
    return absl::EndsWith(path, "server/main.cc");
  };
  // --version: the project's version (collide/version.h), then exit 0.
  usage_config.version_string = [] { return std::string("collide-server " COLLIDE_VERSION "\n"); };
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

  const std::string audit_format = absl::GetFlag(FLAGS_audit_format);
  if (audit_format != "binary" && audit_format != "jsonl") {
    std::fprintf(stderr, "collide-server: audit_format must be binary or jsonl, got \"%s\"\n",
                 audit_format.c_str());
    return 2;
  }

  // First, before gRPC opens anything: every connection costs a descriptor.
  const collide::server::OpenFilesLimit open_files = collide::server::RaiseOpenFilesLimit();
  // And before it starts threads, so that the binary run bare gets the
  // image's MALLOC_ARENA_MAX=2.
  const std::string malloc_arenas = collide::server::LimitMallocArenas();
  const absl::Duration listener_check_timeout = absl::GetFlag(FLAGS_listener_check_timeout);
  if (listener_check_timeout < absl::ZeroDuration()) {
    std::fprintf(stderr, "collide-server: listener_check_timeout must be >= 0\n");
    return 2;
  }

  collide::server::Options options;
  options.host = absl::GetFlag(FLAGS_host);
  options.port = absl::GetFlag(FLAGS_port);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  options.max_items_per_request = absl::GetFlag(FLAGS_max_items_per_request);
  options.max_receive_message_bytes = absl::GetFlag(FLAGS_max_receive_message_bytes);
  options.max_concurrent_calls = absl::GetFlag(FLAGS_max_concurrent_calls);
  options.max_items_in_flight = absl::GetFlag(FLAGS_max_items_in_flight);
  options.drain_timeout = absl::GetFlag(FLAGS_drain_timeout);
  options.tls = {absl::GetFlag(FLAGS_tls_cert_file), absl::GetFlag(FLAGS_tls_key_file),
                 absl::GetFlag(FLAGS_tls_client_ca_file)};
  options.insecure = absl::GetFlag(FLAGS_insecure);
  const char* env_tokens = std::getenv("COLLIDE_AUTH_TOKENS");
  absl::StatusOr<std::vector<std::string>> tokens =
      collide::server::LoadTokens(absl::GetFlag(FLAGS_auth_token_file), env_tokens ? env_tokens : "");
  if (!tokens.ok()) {
    spdlog::error("cannot start: {}", tokens.status().ToString());
    return 1;
  }
  options.auth_tokens = std::move(*tokens);
  options.max_send_message_bytes = absl::GetFlag(FLAGS_max_send_message_bytes);
  options.max_concurrent_streams = absl::GetFlag(FLAGS_max_concurrent_streams);
  options.resource_quota_bytes = absl::GetFlag(FLAGS_resource_quota_bytes);
  options.max_threads = absl::GetFlag(FLAGS_max_threads);
  options.handshake_timeout = absl::GetFlag(FLAGS_handshake_timeout);
  options.max_connection_idle = absl::GetFlag(FLAGS_max_connection_idle);
  options.max_connection_age = absl::GetFlag(FLAGS_max_connection_age);
  options.max_connection_age_grace = absl::GetFlag(FLAGS_max_connection_age_grace);
  options.min_ping_interval = absl::GetFlag(FLAGS_min_ping_interval);
  options.max_ping_strikes = absl::GetFlag(FLAGS_max_ping_strikes);
  options.metrics_port = absl::GetFlag(FLAGS_metrics_port);
  options.world_limits = {
      .max_triangles_per_world = absl::GetFlag(FLAGS_max_triangles_per_world),
      .max_primitive_statics_per_world = absl::GetFlag(FLAGS_max_primitive_statics_per_world),
      .max_bodies_per_world = absl::GetFlag(FLAGS_max_bodies_per_world),
      .max_parts_per_body = absl::GetFlag(FLAGS_max_parts_per_body),
      .max_history_ticks = absl::GetFlag(FLAGS_max_history_ticks),
      .max_worlds = absl::GetFlag(FLAGS_max_worlds),
      .max_worlds_per_tenant = absl::GetFlag(FLAGS_max_worlds_per_tenant),
      .memory_budget_bytes = absl::GetFlag(FLAGS_world_memory_budget_bytes),
      .idle_ttl = absl::GetFlag(FLAGS_world_idle_ttl)};
  options.maps_dir = absl::GetFlag(FLAGS_maps_dir);
  options.journal = {.audit_dir = absl::GetFlag(FLAGS_audit_dir),
                     .audit_format = audit_format == "jsonl" ? collide::server::AuditFormat::kJsonl
                                                             : collide::server::AuditFormat::kBinary,
                     .audit_max_bytes = absl::GetFlag(FLAGS_audit_max_bytes),
                     .audit_max_files = absl::GetFlag(FLAGS_audit_max_files),
                     .recordings_dir = absl::GetFlag(FLAGS_recordings_dir),
                     .recording_max_bytes = absl::GetFlag(FLAGS_recording_max_bytes)};
  options.tick_streams_memory_bytes = absl::GetFlag(FLAGS_tick_streams_memory_bytes);
  collide::server::RouteProtobufLogs(kLibraryLogLinesPerSecond);
  collide::server::RouteGrpcLogs(kLibraryLogLinesPerSecond);

  absl::StatusOr<std::unique_ptr<collide::server::Server>> server = collide::server::Server::Start(options);
  if (!server.ok()) {
    spdlog::error("cannot start: {}", server.status().ToString());
    return 1;
  }
  const collide::server::Options& o = (*server)->options();
  const std::string transport =
      !o.tls.enabled()
          ? (collide::server::IsLoopbackHost(o.host) ? "plaintext (loopback)" : "plaintext (--insecure=true)")
      : o.tls.client_ca_file.empty() ? "TLS"
                                     : "mutual TLS";
  // A listener that stopped accepting (gRPC 1.51 gives up after an accept
  // fails with EMFILE) must not leave a live process nobody can reach; a
  // listener merely late to accept (a busy server) is left to serve.
  std::unique_ptr<collide::server::ListenerWatchdog> watchdog;
  if (listener_check_timeout > absl::ZeroDuration()) {
    const absl::Duration interval =
        std::clamp(listener_check_timeout / 4, absl::Milliseconds(50), absl::Seconds(1));
    const std::string address = (*server)->address();
    absl::StatusOr<std::unique_ptr<collide::server::ListenerWatchdog>> started =
        collide::server::ListenerWatchdog::Start(
            o.host, (*server)->port(), listener_check_timeout, interval,
            [] { return collide::server::GrpcAcceptFailures() > 0; },
            [address, open_files](const std::string& reason) {
              spdlog::critical(
                  "the listener on {} no longer accepts connections: {} (open files limit {}); exiting with "
                  "status 3 so that a supervisor restarts the server",
                  address, reason, open_files.Describe());
              spdlog::default_logger()->flush();
              std::_Exit(3);
            },
            [address](const std::string& reason) {
              spdlog::warn(
                  "the listener on {} is slow to accept: {}; no accept has failed, so the server is busy, "
                  "not "
                  "deaf: serving on",
                  address, reason);
            });
    if (started.ok()) {
      watchdog = std::move(*started);
    } else {
      spdlog::warn("listener self-check off: {}", started.status().ToString());
    }
  }

  // Freed memory back to the kernel within a second or two of a burst
  // (docs/operations.md, "Memory"); the mallopt settings above keep it between calls.
  collide::server::MemoryTrimmer trimmer(absl::Seconds(1), std::int64_t{96} << 20);

  // Announced once the process's own threads run: a client that acts on the
  // line (a test flooding the listener to EMFILE) finds them started.
  spdlog::info(
      "listening on {} (version {}, transport={}, auth={}, worker_threads={}, max_items_per_request={}, "
      "max_receive_message_bytes={}, max_send_message_bytes={}, max_concurrent_streams={}, "
      "resource_quota_bytes={}, max_threads={}, handshake_timeout={}, max_connection_idle={}, "
      "max_connection_age={}, max_connection_age_grace={}, min_ping_interval={}, max_ping_strikes={}, "
      "max_concurrent_calls={}, max_items_in_flight={}, open_files={}, malloc_arenas={}, "
      "listener_check_timeout={}, "
      "max_worlds={}, max_worlds_per_tenant={}, world_memory_budget_bytes={}, world_idle_ttl={}, "
      "tick_streams_memory_bytes={}, "
      "compression=identity only, drain_timeout={}, log_level={}, log_format={})",
      (*server)->address(), COLLIDE_VERSION, transport,
      o.auth_tokens.empty() ? std::string("none") : absl::StrCat(o.auth_tokens.size(), " bearer token(s)"),
      o.worker_threads, o.max_items_per_request, o.max_receive_message_bytes, o.max_send_message_bytes,
      o.max_concurrent_streams, o.resource_quota_bytes, o.max_threads,
      absl::FormatDuration(o.handshake_timeout), absl::FormatDuration(o.max_connection_idle),
      absl::FormatDuration(o.max_connection_age), absl::FormatDuration(o.max_connection_age_grace),
      absl::FormatDuration(o.min_ping_interval), o.max_ping_strikes, o.max_concurrent_calls,
      o.max_items_in_flight, open_files.Describe(), malloc_arenas,
      absl::FormatDuration(listener_check_timeout), o.world_limits.max_worlds,
      o.world_limits.max_worlds_per_tenant, o.world_limits.memory_budget_bytes,
      absl::FormatDuration(o.world_limits.idle_ttl), o.tick_streams_memory_bytes,
      absl::FormatDuration(o.drain_timeout), absl::GetFlag(FLAGS_log_level), absl::GetFlag(FLAGS_log_format));
  if ((*server)->metrics_port() > 0) {
    spdlog::info("metrics on http://{}:{}/metrics", o.host, (*server)->metrics_port());
  }

  const int signal = WaitForSignal(shutdown_signals);
  watchdog.reset();
  spdlog::info("received signal {}: NOT_SERVING, draining in-flight calls for up to {}", signal,
               absl::FormatDuration(o.drain_timeout));
  StartStopDeadline(shutdown_signals, o.drain_timeout + kCancelGrace);
  (*server)->Shutdown();
  (*server)->Wait();
  g_stopped.store(true);
  spdlog::info("stopped");
  return 0;
}
