#include "server/logging.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/stubs/logging.h"
#include "grpc/support/log.h"
#include "spdlog/pattern_formatter.h"
#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

namespace collide::server {
namespace {

// The message as a JSON string body: quotes, backslashes and control
// characters escaped (RFC 8259, section 7).
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    static constexpr char kHex[] = "0123456789abcdef";
    for (char c : msg.payload) {
      switch (c) {
        case '"':
          dest.append(std::string_view("\\\""));
          break;
        case '\\':
          dest.append(std::string_view("\\\\"));
          break;
        case '\n':
          dest.append(std::string_view("\\n"));
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            const char escaped[] = {'\\', 'u', '0', '0', kHex[(c >> 4) & 0xf], kHex[c & 0xf]};
            dest.append(escaped, escaped + sizeof(escaped));
          } else {
            dest.push_back(c);
          }
      }
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<JsonEscapedMessage>();
  }
};

// Writes one line of a library's own log (`source`: "protobuf", "grpc")
// through `limiter`, after a warning counting the lines it dropped since the
// last one written, if any.
void LogLimited(LogRateLimiter& limiter, std::string_view source, spdlog::level::level_enum level,
                const char* file, int line, std::string_view message) {
  std::int64_t suppressed = 0;
  if (!limiter.Admit(absl::Now(), &suppressed)) return;
  if (suppressed > 0) spdlog::warn("{}: suppressed {} {} log messages", source, suppressed, source);
  spdlog::log(level, "{} {}:{}: {}", source, file, line, message);
}

LogRateLimiter* g_protobuf_limiter = nullptr;
LogRateLimiter* g_grpc_limiter = nullptr;
std::atomic<std::int64_t> g_grpc_accept_failures{0};

// The line gRPC 1.51's tcp_server_posix.cc writes before giving up on a
// listening socket ("Failed accept4: %s").
constexpr std::string_view kAcceptFailedLine = "Failed accept4";

void OnGrpcLog(gpr_log_func_args* args) {
  spdlog::level::level_enum level = spdlog::level::err;
  switch (args->severity) {
    case GPR_LOG_SEVERITY_DEBUG:
      level = spdlog::level::debug;
      break;
    case GPR_LOG_SEVERITY_INFO:
      level = spdlog::level::info;
      break;
    case GPR_LOG_SEVERITY_ERROR:
      level = spdlog::level::err;
      break;
  }
  if (args->message != nullptr && std::string_view(args->message).starts_with(kAcceptFailedLine)) {
    g_grpc_accept_failures.fetch_add(1, std::memory_order_relaxed);
  }
  LogLimited(*g_grpc_limiter, "grpc", level, args->file, args->line, args->message);
}

void OnProtobufLog(google::protobuf::LogLevel level, const char* filename, int line,
                   const std::string& message) {
  spdlog::level::level_enum spd = spdlog::level::err;
  switch (level) {
    case google::protobuf::LOGLEVEL_INFO:
      spd = spdlog::level::info;
      break;
    case google::protobuf::LOGLEVEL_WARNING:
      spd = spdlog::level::warn;
      break;
    case google::protobuf::LOGLEVEL_ERROR:
      spd = spdlog::level::err;
      break;
    case google::protobuf::LOGLEVEL_FATAL:
      spd = spdlog::level::critical;
      break;
  }
  LogLimited(*g_protobuf_limiter, "protobuf", spd, filename, line, message);
}

}  // namespace

LogRateLimiter::LogRateLimiter(double per_second)
    : per_second_(per_second), tokens_(per_second), last_(absl::InfinitePast()) {}

bool LogRateLimiter::Admit(absl::Time now, std::int64_t* suppressed) {
  absl::MutexLock lock(&mu_);
  if (last_ != absl::InfinitePast() && now > last_) {
    tokens_ = std::min(per_second_, tokens_ + absl::ToDoubleSeconds(now - last_) * per_second_);
  }
  if (now > last_ || last_ == absl::InfinitePast()) last_ = now;
  if (tokens_ < 1) {
    ++suppressed_;
    return false;
  }
  tokens_ -= 1;
  *suppressed = suppressed_;
  suppressed_ = 0;
  return true;
}

void RouteProtobufLogs(double lines_per_second) {
  // Leaked: protobuf may log until the process exits.
  static LogRateLimiter* limiter = new LogRateLimiter(lines_per_second);
  g_protobuf_limiter = limiter;
  google::protobuf::SetLogHandler(OnProtobufLog);
}

void RouteGrpcLogs(double lines_per_second) {
  // Leaked: gRPC may log until the process exits.
  static LogRateLimiter* limiter = new LogRateLimiter(lines_per_second);
  g_grpc_limiter = limiter;
  gpr_set_log_function(OnGrpcLog);
}

std::int64_t GrpcAcceptFailures() { return g_grpc_accept_failures.load(std::memory_order_relaxed); }

absl::Status ConfigureLogging(std::string_view level, std::string_view format) {
  const spdlog::level::level_enum parsed = spdlog::level::from_str(std::string(level));
  // from_str maps unknown names to "off"; only the documented names count.
  if (level != "trace" && level != "debug" && level != "info" && level != "warn" && level != "error") {
    return absl::InvalidArgumentError(absl::StrCat(
        "log_level must be trace, debug, info, warn or error, got \"", std::string(level), "\""));
  }
  auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
  if (format == "json") {
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","thread":%t,"msg":"%*"})");
  } else if (format == "text") {
    formatter->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %L %t %v");
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("log_format must be text or json, got \"", std::string(format), "\""));
  }
  auto logger =
      std::make_shared<spdlog::logger>("collide", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_formatter(std::move(formatter));
  logger->set_level(parsed);
  // Errors reach the terminal or the collector at once.
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(std::move(logger));
  return absl::OkStatus();
}

}  // namespace collide::server
