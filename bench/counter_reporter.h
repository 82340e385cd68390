// Google Benchmark's console output, plus one counter of every run kept for
// the summary table a benchmark program prints after its runs: the median
// when repetitions are aggregated, else the single run's value.
#ifndef COLLIDE_BENCH_COUNTER_REPORTER_H_
#define COLLIDE_BENCH_COUNTER_REPORTER_H_

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collide::bench {

class CounterReporter : public benchmark::ConsoleReporter {
 public:
  CounterReporter(OutputOptions options, std::string counter)
      : ConsoleReporter(options), counter_(std::move(counter)) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool aggregate = run.run_type == Run::RT_Aggregate;
      if (aggregate && run.aggregate_name != "median") continue;
      const auto it = run.counters.find(counter_);
      if (it == run.counters.end()) continue;
      const std::string name = run.run_name.function_name;
      if (!aggregate && medians_.count(name)) continue;
      (aggregate ? medians_ : singles_)[name] = it->second.value;
    }
  }

  // The counter of the benchmark `name` (function name, no aggregate suffix).
  std::optional<double> Value(const std::string& name) const {
    if (const auto it = medians_.find(name); it != medians_.end()) return it->second;
    if (const auto it = singles_.find(name); it != singles_.end()) return it->second;
    return std::nullopt;
  }

 private:
  std::string counter_;
  std::map<std::string, double> medians_;
  std::map<std::string, double> singles_;
};

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_COUNTER_REPORTER_H_
