// Latency percentiles for the CLI's load generators (bench, world demo).
#ifndef COLLIDE_CLIENT_CLI_LATENCY_STATS_H_
#define COLLIDE_CLIENT_CLI_LATENCY_STATS_H_

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace collide::cli {

using Clock = std::chrono::steady_clock;

struct Percentiles {
  double p50 = 0, p90 = 0, p99 = 0, max = 0;  // microseconds.
};

// Nearest-rank percentiles of `us` (sorted in place); zeros when empty.
inline Percentiles Summarize(std::vector<double>& us) {
  if (us.empty()) return {};
  std::sort(us.begin(), us.end());
  const auto at = [&us](double q) {
    return us[static_cast<std::size_t>(q * static_cast<double>(us.size() - 1))];
  };
  return {at(0.50), at(0.90), at(0.99), us.back()};
}

inline double Micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_LATENCY_STATS_H_
