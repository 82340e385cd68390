// `collide bench`: a closed-loop load generator. --concurrency threads each
// keep one call in flight for --duration, sending the same seeded batch of
// --batch pairs; every call's latency and status is recorded. The same run
// then measures, for scale, (a) the in-process core on the same pairs, one
// thread, (b) a bare round trip (GetServerInfo, which does no work) and (c)
// the machine's floor under both, a one-byte ping-pong between two threads
// over loopback TCP (loopback_floor.h), and prints the ratios. Exit 1 if any call failed.
#include <google/protobuf/arena.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "bench_workload.h"
#include "collide/client_proto.h"
#include "collide/query.h"
#include "collide/v1/collide.pb.h"
#include "commands.h"
#include "latency_stats.h"
#include "loopback_floor.h"

ABSL_FLAG(std::string, encoding, "packed", "bench: packed (QueryPairsPacked) or readable (QueryPairs)");
ABSL_FLAG(std::string, kind, "obb", "bench: shape kind of both sides of every pair (point ... halfspace)");
ABSL_FLAG(int, batch, 4096, "bench: pairs per call");
ABSL_FLAG(int, concurrency, 4, "bench: calls in flight (one thread each)");
ABSL_FLAG(absl::Duration, duration, absl::Seconds(10), "bench: how long to send (at most 10m)");
ABSL_FLAG(std::string, level, "contact", "bench: intersect, distance or contact");
ABSL_FLAG(std::uint64_t, seed, 1, "bench: seed of the random shapes");
ABSL_FLAG(std::string, client_path, "wire",
          "bench: wire (the request is serialized once and its bytes sent on every call, as a load "
          "generator should: the figure is the service's) or typed (every call goes through the typed "
          "Client methods, converting core shapes to messages and results back: what a C++ caller pays)");
ABSL_FLAG(bool, world, false,
          "bench: the world service instead of pair queries (shots/s, moves/s, frames/s, unary and stream, "
          "against the in-process core: bench_world.cc)");
ABSL_FLAG(absl::Duration, baseline_duration, absl::Seconds(2),
          "bench: how long each baseline (core, bare round trip) runs");

ABSL_DECLARE_FLAG(int, matches);

namespace collide::cli {
namespace {

std::optional<QueryLevel> ParseLevel(std::string_view name) {
  if (name == "intersect") return QueryLevel::kIntersect;
  if (name == "distance") return QueryLevel::kDistance;
  if (name == "contact") return QueryLevel::kContact;
  return std::nullopt;
}

struct ThreadStats {
  std::vector<double> latency_us;  // OK calls only.
  std::map<absl::StatusCode, std::int64_t> codes;
  std::string first_error;
  std::int64_t hits = 0;
};

// How one call is made and its hits counted.
class Caller {
 public:
  virtual ~Caller() = default;
  // The call's status; on OK, `hits` receives the number of pairs hit.
  virtual absl::Status Call(std::int64_t& hits) = 0;
};

// Through the typed Client methods: conversion both ways on every call.
class TypedCaller final : public Caller {
 public:
  TypedCaller(Client& client, const BenchWorkload& w, QueryLevel level, bool packed)
      : client_(client), w_(w), level_(level), packed_(packed) {}
  absl::Status Call(std::int64_t& hits) override {
    absl::StatusOr<std::vector<PairResult>> r =
        packed_ ? client_.QueryPairsPacked(level_, w_.kind, w_.packed_a, w_.kind, w_.packed_b)
                : client_.QueryPairs(level_, w_.pairs);
    if (!r.ok()) return r.status();
    for (const PairResult& p : *r) hits += p.hit;
    return absl::OkStatus();
  }

 private:
  Client& client_;
  const BenchWorkload& w_;
  QueryLevel level_;
  bool packed_;
};

// The request serialized once and its bytes sent on every call, as a load
// generator should (the figure is then the service's, not this process's
// protobuf encoder's: a 4096-pair readable request costs the client ~1 ms to
// serialize); the response parsed as messages, in an arena whose first block
// is reused from call to call.
class WireCaller final : public Caller {
 public:
  WireCaller(Client& client, const BenchWorkload& w, QueryLevel level, bool packed)
      : client_(client), packed_(packed), block_(std::make_unique<char[]>(kBlockBytes)) {
    if (packed) {
      v1::QueryPairsPackedRequest request;
      // The workload's kind has a packed encoding (checked before the run).
      BuildQueryPairsPackedRequest(level, w.kind, w.packed_a, w.kind, w.packed_b, request).IgnoreError();
      request_ = request.SerializeAsString();
    } else {
      v1::QueryPairsRequest request;
      BuildQueryPairsRequest(level, w.pairs, request);
      request_ = request.SerializeAsString();
    }
  }
  absl::Status Call(std::int64_t& hits) override {
    google::protobuf::ArenaOptions options;
    options.initial_block = block_.get();
    options.initial_block_size = kBlockBytes;
    google::protobuf::Arena arena(options);
    if (packed_) {
      auto* response = google::protobuf::Arena::CreateMessage<v1::QueryPairsPackedResponse>(&arena);
      if (absl::Status s = CallSerialized(client_, QueryMethod::kQueryPairsPacked, request_, *response);
          !s.ok()) {
        return s;
      }
      for (const bool hit : response->hit()) hits += hit;
      return absl::OkStatus();
    }
    auto* response = google::protobuf::Arena::CreateMessage<v1::QueryPairsResponse>(&arena);
    if (absl::Status s = CallSerialized(client_, QueryMethod::kQueryPairs, request_, *response); !s.ok())
      return s;
    for (const v1::PairResult& r : response->results()) hits += r.hit();
    return absl::OkStatus();
  }

 private:
  static constexpr std::size_t kBlockBytes = 8 << 20;  // A 4096-pair contact response fits.
  Client& client_;
  bool packed_;
  std::string request_;
  std::unique_ptr<char[]> block_;
};

// One closed loop: call, record, repeat until `end`.
void LoadLoop(Caller& caller, Clock::time_point end, ThreadStats& stats) {
  while (Clock::now() < end) {
    const Clock::time_point t0 = Clock::now();
    std::int64_t hits = 0;
    const absl::Status status = caller.Call(hits);
    const Clock::time_point t1 = Clock::now();
    ++stats.codes[status.code()];
    if (!status.ok()) {
      if (stats.first_error.empty()) stats.first_error = DescribeStatus(status);
      continue;
    }
    stats.latency_us.push_back(Micros(t1 - t0));
    stats.hits += hits;
  }
}

struct CoreRate {
  double pairs_per_second = 0;
  double hit_rate = 0;  // should equal the service's.
};

// collide::Query over the workload on this thread, for at least `budget`.
CoreRate MeasureCore(const BenchWorkload& w, QueryLevel level, absl::Duration budget) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + absl::ToChronoNanoseconds(budget);
  std::int64_t pairs = 0;
  std::int64_t hits = 0;
  do {
    for (const ShapePair& p : w.pairs) hits += Query(level, p.a, p.b).hit;
    pairs += static_cast<std::int64_t>(w.pairs.size());
  } while (Clock::now() < end);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return {static_cast<double>(pairs) / seconds, static_cast<double>(hits) / static_cast<double>(pairs)};
}

}  // namespace

int RunBench() {
  if (absl::GetFlag(FLAGS_world)) return RunWorldBench();
  if (absl::GetFlag(FLAGS_matches) > 0) return RunMatchesBench();
  const std::string encoding = absl::GetFlag(FLAGS_encoding);
  const std::optional<ShapeKind> kind = ParseShapeKind(absl::GetFlag(FLAGS_kind));
  const std::optional<QueryLevel> level = ParseLevel(absl::GetFlag(FLAGS_level));
  const int batch = absl::GetFlag(FLAGS_batch);
  const int concurrency = absl::GetFlag(FLAGS_concurrency);
  const absl::Duration duration = absl::GetFlag(FLAGS_duration);
  const std::string client_path = absl::GetFlag(FLAGS_client_path);
  if ((encoding != "packed" && encoding != "readable") || (client_path != "wire" && client_path != "typed") ||
      !kind || !level || batch < 1 || concurrency < 1 || concurrency > 1024 ||
      duration <= absl::ZeroDuration() || duration > absl::Minutes(10)) {
    std::cerr << "bench: bad flags (--encoding packed|readable, --client_path wire|typed, --kind a shape "
                 "kind, --level "
                 "intersect|distance|contact, --batch >= 1, --concurrency 1..1024, --duration in (0, 10m])\n";
    return 2;
  }
  const bool packed = encoding == "packed";
  // The load generator must not measure its own page faults: with glibc's
  // defaults each call's request copy, response and results vector (about
  // 1.3 MB per 4096-pair call) are returned to the kernel and faulted in
  // again, ~60 faults per call (5 s of packed intersect: ~2,500 page faults
  // with these settings, 143,000 without).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  if (packed && PackedStride(*kind) == 0) {
    std::cerr << "bench: " << ShapeKindName(*kind) << " has no packed encoding; use --encoding=readable\n";
    return 2;
  }
  absl::StatusOr<Client> client = MakeClient();
  if (!client.ok()) {
    std::cerr << DescribeStatus(client.status()) << "\n";
    return 1;
  }
  const BenchWorkload workload = MakeBenchWorkload(*kind, batch, absl::GetFlag(FLAGS_seed));

  // Warm up: connect, and fail fast when the server is not there.
  if (absl::StatusOr<ServerInfo> info = client->GetServerInfo(); !info.ok()) {
    std::cerr << "bench: " << client->target() << " unreachable: " << DescribeStatus(info.status()) << "\n";
    return 1;
  }

  std::vector<ThreadStats> stats(concurrency);
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + absl::ToChronoNanoseconds(duration);
  {
    std::vector<std::unique_ptr<Caller>> callers;
    for (int i = 0; i < concurrency; ++i) {
      if (client_path == "wire") {
        callers.push_back(std::make_unique<WireCaller>(*client, workload, *level, packed));
      } else {
        callers.push_back(std::make_unique<TypedCaller>(*client, workload, *level, packed));
      }
    }
    std::vector<std::jthread> threads;
    for (int i = 0; i < concurrency; ++i) {
      threads.emplace_back([&, i] { LoadLoop(*callers[i], end, stats[i]); });
    }
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<double> latency;
  std::map<absl::StatusCode, std::int64_t> codes;
  std::int64_t hits = 0;
  std::string first_error;
  for (ThreadStats& s : stats) {
    latency.insert(latency.end(), s.latency_us.begin(), s.latency_us.end());
    for (const auto& [code, n] : s.codes) codes[code] += n;
    hits += s.hits;
    if (first_error.empty()) first_error = s.first_error;
  }
  const std::int64_t ok_calls = static_cast<std::int64_t>(latency.size());
  const double pairs_per_second = static_cast<double>(ok_calls) * batch / elapsed;
  const Percentiles call = Summarize(latency);

  // (a) The in-process core on the same pairs, one thread.
  const absl::Duration baseline = absl::GetFlag(FLAGS_baseline_duration);
  const CoreRate core = MeasureCore(workload, *level, baseline);

  // (b) A bare round trip, one call at a time.
  std::vector<double> rtt;
  std::int64_t rtt_errors = 0;
  const Clock::time_point rtt_end = Clock::now() + absl::ToChronoNanoseconds(baseline);
  while (Clock::now() < rtt_end) {
    const Clock::time_point t0 = Clock::now();
    const bool ok = client->GetServerInfo().ok();
    const Clock::time_point t1 = Clock::now();
    if (ok) {
      rtt.push_back(Micros(t1 - t0));
    } else {
      ++rtt_errors;
    }
  }
  const Percentiles round_trip = Summarize(rtt);

  // (c) The loopback floor.
  absl::StatusOr<std::vector<double>> ping_pong = MeasureLoopbackPingPong(baseline);
  std::vector<double> floor_us = ping_pong.ok() ? *std::move(ping_pong) : std::vector<double>{};
  const Percentiles loopback = Summarize(floor_us);

  std::cout << absl::StrFormat(
      "target %s  encoding %s  client %s  kind %s  level %s  batch %d  concurrency %d  duration %.1fs\n",
      client->target(), encoding, client_path, ShapeKindName(*kind), absl::GetFlag(FLAGS_level), batch,
      concurrency, elapsed);
  std::cout << absl::StrFormat("service      %12.0f pairs/s  %d calls OK  hit rate %.1f%%\n",
                               pairs_per_second, ok_calls,
                               ok_calls ? 100.0 * hits / (static_cast<double>(ok_calls) * batch) : 0.0);
  std::cout << absl::StrFormat("call latency p50 %.0f us  p90 %.0f us  p99 %.0f us  max %.0f us\n", call.p50,
                               call.p90, call.p99, call.max);
  std::cout << absl::StrFormat(
      "core         %12.0f pairs/s  (one thread, in process)  hit rate %.1f%%  service/core %.2f\n",
      core.pairs_per_second, 100.0 * core.hit_rate, pairs_per_second / core.pairs_per_second);
  std::cout << absl::StrFormat(
      "round trip   p50 %.0f us  p99 %.0f us  (GetServerInfo, %d calls)  call p50 / round trip p50 %.2f\n",
      round_trip.p50, round_trip.p99, rtt.size(), round_trip.p50 > 0 ? call.p50 / round_trip.p50 : 0.0);
  if (ping_pong.ok()) {
    std::cout << absl::StrFormat(
        "loopback     p50 %.0f us  p99 %.0f us  (1-byte TCP ping-pong between two threads, %d round trips)\n",
        loopback.p50, loopback.p99, floor_us.size());
  } else {
    std::cout << "loopback     not measured: " << ping_pong.status().message() << "\n";
  }
  std::int64_t failed = rtt_errors;
  std::cout << "status";
  for (const auto& [code, n] : codes) {
    std::cout << "  " << absl::StatusCodeToString(code) << " " << n;
    if (code != absl::StatusCode::kOk) failed += n;
  }
  if (rtt_errors) std::cout << "  (round trip errors " << rtt_errors << ")";
  std::cout << "\n";
  if (!first_error.empty()) std::cout << "first error: " << first_error << "\n";
  return failed == 0 && ok_calls > 0 ? 0 : 1;
}

}  // namespace collide::cli
