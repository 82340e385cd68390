// spdlog setup for the server binary: level and text or JSON lines on stderr.
#ifndef COLLIDE_SERVER_LOGGING_H_
#define COLLIDE_SERVER_LOGGING_H_

#include <cstdint>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace collide::server {

// level: trace, debug, info, warn or error. format: "text" (human-readable
// lines) or "json" (one object per line: time, level, msg).
absl::Status ConfigureLogging(std::string_view level, std::string_view format);

// A token bucket for log lines: bursts of up to `per_second` lines, refilled
// at `per_second` lines per second. Thread-safe.
class LogRateLimiter {
 public:
  explicit LogRateLimiter(double per_second);
  // Whether a line logged at `now` may be written. When it may and lines
  // were dropped since the last one written, *suppressed is their number
  // (else 0): the caller reports them first.
  bool Admit(absl::Time now, std::int64_t* suppressed);

 private:
  absl::Mutex mu_;
  const double per_second_;
  double tokens_ ABSL_GUARDED_BY(mu_);
  absl::Time last_ ABSL_GUARDED_BY(mu_);
  std::int64_t suppressed_ ABSL_GUARDED_BY(mu_) = 0;
};

// Sends protobuf's own log lines (parse errors, warnings) to the spdlog
// logger, at most `lines_per_second` of them, then one "suppressed K protobuf
// log messages" line when the bucket refills: a client sending malformed
// messages must not be able to flood the log.
void RouteProtobufLogs(double lines_per_second);

// The same for gRPC's own log lines (gpr_log: transport and handshake errors,
// one per bad connection or refused call), with a limiter of their own and
// "suppressed K grpc log messages". Unrouted, 300 junk TLS handshakes wrote
// 307 lines.
void RouteGrpcLogs(double lines_per_second);

// How many times gRPC has logged "Failed accept4" since RouteGrpcLogs (each
// counted, written to the log or not): gRPC 1.51's listener logs it when an
// accept fails with anything but EAGAIN or EINTR (EMFILE, ENFILE, ENOMEM)
// and never accepts on that socket again, so a count above 0 means a deaf
// listener (ListenerWatchdog).
std::int64_t GrpcAcceptFailures();

}  // namespace collide::server

#endif  // COLLIDE_SERVER_LOGGING_H_
