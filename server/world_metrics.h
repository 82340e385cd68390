// The worlds' share of the Prometheus metrics: frames pushed and shot and
// move verdicts by code, counted from the answers; the registry's worlds,
// bodies, triangles, memory against the budget and lifecycle counts, read
// when rendering. Each world call's status, items and latency go to Metrics
// by RPC, as the collision service's do, and to its access log line.
#ifndef COLLIDE_SERVER_WORLD_METRICS_H_
#define COLLIDE_SERVER_WORLD_METRICS_H_

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "collide/v1/world.pb.h"
#include "grpcpp/support/status.h"
#include "server/logging.h"
#include "server/metrics.h"
#include "server/world_registry.h"

namespace collide::server {

// Items of a world answer: the queries, rays, shots, moves or bodies answered; 0 for
// the others.
std::size_t AnsweredItems(const v1::QueryWorldResponse& response);
std::size_t AnsweredItems(const v1::CastWorldRaysPackedResponse& response);
std::size_t AnsweredItems(const v1::ValidateShotsResponse& response);
std::size_t AnsweredItems(const v1::ValidateMovesResponse& response);
std::size_t AnsweredItems(const v1::GetBodiesResponse& response);
std::size_t AnsweredItems(const v1::TickResponse& response);  // Of its parts.
inline std::size_t AnsweredItems(const google::protobuf::Message&) { return 0; }

class WorldMetrics {
 public:
  explicit WorldMetrics(WorldRegistry& registry) : registry_(registry) {}

  // One finished world call or Tick message of `rpc` (a name of
  // Metrics::kRpcs) on `world` ("" for ListWorlds) started at `start`, with
  // its status and answer. A unary answer counts only when OK; a Tick answer
  // holds the parts that ran even when a later one failed, and they count.
  // `metrics` may be null (no endpoint): the world counts are kept
  // regardless. At debug level, also the call's access log line
  // (LogAccess).
  template <typename Response>
  void Record(Metrics* metrics, std::string_view rpc, std::string_view world, const grpc::Status& status,
              const Response& response, std::chrono::steady_clock::time_point start) {
    const bool answered = status.ok() || std::is_same_v<Response, v1::TickResponse>;
    if (answered) Count(response);
    const std::size_t items = answered ? AnsweredItems(response) : 0;
    const auto latency = std::chrono::steady_clock::now() - start;
    if (metrics != nullptr) metrics->Record(rpc, status.error_code(), items, latency);
    LogAccess(rpc, world, items, status, latency);
  }

  // At debug level: "PushFrame world=match-1 items=0 status=0
  // latency_us=42", plus " message=..." when not OK, as the collision
  // service's call lines; at most kAccessLinesPerSecond, then a line
  // counting the ones dropped (a busy replica answers thousands of world
  // calls a second).
  void LogAccess(std::string_view rpc, std::string_view world, std::size_t items, const grpc::Status& status,
                 std::chrono::steady_clock::duration latency);
  static constexpr double kAccessLinesPerSecond = 100;

  // What an OK answer did: a frame pushed, verdicts by code.
  void Count(const v1::PushFrameResponse& response);
  void Count(const v1::ValidateShotsResponse& response);
  void Count(const v1::ValidateMovesResponse& response);
  void Count(const v1::TickResponse& response);  // Each part as its unary answer.
  void Count(const google::protobuf::Message&) {}

  // The collide_world* families (Metrics::AddSection).
  std::string Render() const;

 private:
  WorldRegistry& registry_;
  LogRateLimiter access_lines_{kAccessLinesPerSecond};
  std::atomic<std::int64_t> frames_{0};
  std::array<std::atomic<std::int64_t>, v1::ShotCode_ARRAYSIZE> shots_{};  // By code.
  std::array<std::atomic<std::int64_t>, v1::MoveCode_ARRAYSIZE> moves_{};
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_WORLD_METRICS_H_
