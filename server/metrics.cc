#include "server/metrics.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace collide::server {

void Metrics::Record(std::string_view rpc, grpc::StatusCode code, std::size_t items,
                     std::chrono::nanoseconds latency) {
  const auto it = std::find_if(kRpcs.begin(), kRpcs.end(), [rpc](const char* name) { return rpc == name; });
  const int c = static_cast<int>(code);
  if (it == kRpcs.end() || c < 0 || c >= kCodes) return;
  PerRpc& m = rpcs_[it - kRpcs.begin()];
  m.requests[c].fetch_add(1, std::memory_order_relaxed);
  m.items[c].fetch_add(static_cast<std::int64_t>(items), std::memory_order_relaxed);
  const double seconds = std::chrono::duration<double>(latency).count();
  const std::size_t bucket =
      std::lower_bound(kLatencyBounds.begin(), kLatencyBounds.end(), seconds) - kLatencyBounds.begin();
  m.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
  m.latency_ns.fetch_add(latency.count(), std::memory_order_relaxed);
}

std::string Metrics::Render() const {
  std::string out;
  const auto counter = [&](const char* name, const char* help, auto member) {
    absl::StrAppend(&out, "# HELP ", name, " ", help, "\n# TYPE ", name, " counter\n");
    for (std::size_t r = 0; r < kRpcs.size(); ++r) {
      for (int c = 0; c < kCodes; ++c) {
        const std::int64_t n = (rpcs_[r].*member)[c].load(std::memory_order_relaxed);
        if (n == 0) continue;  // a series appears with its first count.
        absl::StrAppend(&out, name, "{rpc=\"", kRpcs[r], "\",code=\"",
                        absl::StatusCodeToString(static_cast<absl::StatusCode>(c)), "\"} ", n, "\n");
      }
    }
  };
  counter("collide_requests_total", "Calls answered, by RPC and gRPC status code.", &PerRpc::requests);
  counter(
      "collide_items_total",
      "Pairs, casts, world queries, shots or moves in the calls answered (a world call's: in its answer), "
      "by RPC and gRPC status code.",
      &PerRpc::items);

  constexpr char kLatency[] = "collide_request_duration_seconds";
  absl::StrAppend(&out, "# HELP ", kLatency,
                  " Time from a call's handler start to its status (queue wait of posted calls included).\n",
                  "# TYPE ", kLatency, " histogram\n");
  for (std::size_t r = 0; r < kRpcs.size(); ++r) {
    std::int64_t cumulative = 0;
    for (std::size_t b = 0; b <= kLatencyBounds.size(); ++b) {
      cumulative += rpcs_[r].buckets[b].load(std::memory_order_relaxed);
      const std::string le = b < kLatencyBounds.size() ? absl::StrFormat("%g", kLatencyBounds[b]) : "+Inf";
      absl::StrAppend(&out, kLatency, "_bucket{rpc=\"", kRpcs[r], "\",le=\"", le, "\"} ", cumulative, "\n");
    }
    absl::StrAppend(&out, kLatency, "_sum{rpc=\"", kRpcs[r], "\"} ",
                    absl::StrFormat("%.9f", rpcs_[r].latency_ns.load(std::memory_order_relaxed) * 1e-9), "\n",
                    kLatency, "_count{rpc=\"", kRpcs[r], "\"} ", cumulative, "\n");
  }

  absl::StrAppend(&out,
                  "# HELP collide_calls_in_flight Calls and Tick messages admitted and not answered yet.\n"
                  "# TYPE collide_calls_in_flight gauge\n"
                  "collide_calls_in_flight ",
                  in_flight_ ? in_flight_() : 0, "\n");
  for (const auto& section : sections_) out += section();
  return out;
}

}  // namespace collide::server
