// The server's Prometheus metrics: calls and items by RPC and status code,
// call latency histograms by RPC, calls in flight, then the sections others
// add (the worlds': WorldMetrics). Recording is a few
// relaxed atomic adds (no lock); Render() writes the Prometheus text
// exposition format 0.0.4 that the HttpEndpoint serves at GET /metrics.
#ifndef COLLIDE_SERVER_METRICS_H_
#define COLLIDE_SERVER_METRICS_H_

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "grpcpp/support/status.h"

namespace collide::server {

class Metrics {
 public:
  // The RPCs, in the order of collide.proto, then of world.proto's methods
  // (Tick: each message of the stream, timed from its read).
  static constexpr std::array<const char*, 20> kRpcs = {
      "QueryPairs",    "QueryPairsPacked",    "CastRays",      "CastRaysPacked",
      "GetServerInfo", "CreateWorld",         "DeleteWorld",   "GetWorld",
      "ListWorlds",    "PushFrame",           "QueryWorld",    "CastWorldRaysPacked",
      "ValidateShots", "ValidateShotsPacked", "ValidateMoves", "Tick",
      "GetBodies",     "ValidateProjectiles", "ValidateMelee", "GetVisibility"};
  // Upper bounds of the latency buckets, seconds (+Inf is implied): 50 us to
  // 10 s, about 2.5x apart.
  static constexpr std::array<double, 13> kLatencyBounds = {5e-5, 1e-4,   2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3,
                                                            1e-2, 2.5e-2, 5e-2,   0.1,  1.0,  10.0};

  // One finished call of `rpc` (a name of kRpcs; others are ignored):
  // its status, the pairs or casts it answered, and its time from the
  // handler's start to the status.
  void Record(std::string_view rpc, grpc::StatusCode code, std::size_t items,
              std::chrono::nanoseconds latency);
  // Calls in flight, read when rendering (the service's own count).
  void SetInFlightSource(std::function<int()> in_flight) { in_flight_ = std::move(in_flight); }
  // More families, rendered after these (WorldMetrics::Render).
  void AddSection(std::function<std::string()> render) { sections_.push_back(std::move(render)); }

  std::string Render() const;

 private:
  static constexpr int kCodes = 17;  // grpc::StatusCode 0 (OK) .. 16 (UNAUTHENTICATED).
  struct PerRpc {
    std::array<std::atomic<std::int64_t>, kCodes> requests{};
    std::array<std::atomic<std::int64_t>, kCodes> items{};
    std::array<std::atomic<std::int64_t>, kLatencyBounds.size() + 1>
        buckets{};  // not cumulative; last is +Inf.
    std::atomic<std::int64_t> latency_ns{0};
  };
  std::array<PerRpc, kRpcs.size()> rpcs_;
  std::function<int()> in_flight_;
  std::vector<std::function<std::string()>> sections_;
};

}  // namespace collide::server

#endif  // COLLIDE_SERVER_METRICS_H_
