// `collide bench --world`: the world service end to end against the
// in-process core on the same inputs, in the same run.
//
// A world (the built-in arena, or --map FILE[:MAP] from the server's
// --maps_dir, which --maps_dir must also name here for the core) is created
// on the server and the same world built in process; --players bots play
// 32 ticks in both (frames pushed to both), so both hold the same history.
// Then, each phase for --phase:
//   shots   ValidateShotsPacked calls of --batch lagged head shots,
//           --concurrency calls in flight (one thread each);
//   moves   ValidateMoves calls of --batch moves, likewise;
//   frames  PushFrame of every bot's new pose, one call at a time (frames
//           are ordered), ticks increasing;
// through unary calls and through the Tick stream (one stream per thread, a
// message at a time), and the core on one thread on the same batches and
// frames; the ratios service/core are printed. Last, the tick message of
// the issue (a frame of 64 bodies, 64 moves, 10 shots) as unary calls and
// as one stream message, against a bare round trip (GetServerInfo): p50s and
// their ratio; and an empty message on the same stream (its p50 and the
// tick's ratio to it). Before measuring, the service's verdicts on the
// batches are compared with the core's (they must be equal: "answers
// equal").
#include <unistd.h>

#include <atomic>
#include <iostream>
#include <memory>
#include <thread>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "latency_stats.h"
#include "world_floor.h"
#include "world_match.h"
#include "world_tick.h"

ABSL_DECLARE_FLAG(std::string, map);
ABSL_DECLARE_FLAG(int, batch);
ABSL_DECLARE_FLAG(int, concurrency);
ABSL_DECLARE_FLAG(int, players);
ABSL_DECLARE_FLAG(std::uint64_t, seed);
ABSL_FLAG(std::string, maps_dir, "",
          "bench --world, world demo --record, world replay, view and export: the directory holding the map "
          "files on this machine (the server's --maps_dir), read here to run the same world in process "
          "(bench), to pin them in a recording (demo) or to rebuild a recorded world (replay, view, export)");
ABSL_FLAG(absl::Duration, phase, absl::Seconds(2), "bench --world: how long each measured phase runs");

namespace collide::cli {
namespace {

constexpr int kWarmupTicks = 32;
constexpr double kTickSeconds = 1.0 / 64;

struct Rate {
  double items_per_second = 0;
  Percentiles latency;  // per call or message, microseconds.
  std::int64_t calls = 0;
  std::int64_t errors = 0;
  std::string first_error;
};

// `threads` closed loops of `call` (returning its status) for `duration`;
// each OK call counts `items`.
template <typename Call>
Rate ClosedLoop(int threads, absl::Duration duration, std::int64_t items, Call call) {
  struct Stats {
    std::vector<double> us;
    std::int64_t errors = 0;
    std::string first_error;
  };
  std::vector<Stats> stats(static_cast<std::size_t>(threads));
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + absl::ToChronoNanoseconds(duration);
  {
    std::vector<std::jthread> workers;
    for (int t = 0; t < threads; ++t) {
      workers.emplace_back([&, t] {
        Stats& s = stats[static_cast<std::size_t>(t)];
        while (Clock::now() < end) {
          const Clock::time_point t0 = Clock::now();
          const absl::Status status = call(t);
          if (status.ok()) {
            s.us.push_back(Micros(Clock::now() - t0));
          } else if (s.errors++ == 0) {
            s.first_error = DescribeStatus(status);
          }
        }
      });
    }
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  Rate r;
  std::vector<double> all;
  for (Stats& s : stats) {
    all.insert(all.end(), s.us.begin(), s.us.end());
    r.errors += s.errors;
    if (r.first_error.empty()) r.first_error = s.first_error;
  }
  r.calls = static_cast<std::int64_t>(all.size());
  r.items_per_second = static_cast<double>(r.calls * items) / elapsed;
  r.latency = Summarize(all);
  return r;
}

// Verdicts compared field by field (the wire carries every double as is).
bool Same(const ShotVerdict& a, const ShotVerdict& b) {
  return a.code == b.code && a.time == b.time && a.first_hit == b.first_hit &&
         a.claim_miss_distance == b.claim_miss_distance && a.origin_offset == b.origin_offset;
}
bool Same(const MoveVerdict& a, const MoveVerdict& b) {
  return a.code == b.code && a.speed == b.speed && a.allowed_position == b.allowed_position &&
         a.slid_position == b.slid_position && a.t == b.t && a.normal == b.normal && a.depth == b.depth;
}
template <typename T>
std::int64_t Differences(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return static_cast<std::int64_t>(std::max(a.size(), b.size()));
  std::int64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += !Same(a[i], b[i]);
  return n;
}

// `n` items cycled from `pool`.
template <typename T>
std::vector<T> Cycle(const std::vector<T>& pool, std::size_t n) {
  std::vector<T> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(pool[i % pool.size()]);
  return out;
}

int Fail(std::string_view what, const absl::Status& status) {
  std::cerr << "bench --world: " << what << ": " << DescribeStatus(status) << "\n";
  return 1;
}

void PrintRate(std::string_view what, std::string_view unit, const Rate& r, double core) {
  std::cout << absl::StrFormat("  %-22s %11.0f %s  p50 %6.0f us  p99 %6.0f us  service/core %.2f%s\n", what,
                               r.items_per_second, unit, r.latency.p50, r.latency.p99,
                               core > 0 ? r.items_per_second / core : 0.0,
                               r.errors ? absl::StrCat("  ERRORS ", r.errors, ": ", r.first_error) : "");
}

}  // namespace

int RunWorldBench() {
  const std::string map = absl::GetFlag(FLAGS_map);
  const int batch = absl::GetFlag(FLAGS_batch);
  const int concurrency = absl::GetFlag(FLAGS_concurrency);
  const int players = absl::GetFlag(FLAGS_players) == 0 ? 64 : absl::GetFlag(FLAGS_players);
  const absl::Duration phase = absl::GetFlag(FLAGS_phase);
  const std::uint64_t seed = absl::GetFlag(FLAGS_seed);
  if (batch < 1 || concurrency < 1 || concurrency > 64 || players < 2 || players > 1000 ||
      phase <= absl::ZeroDuration() || phase > absl::Minutes(10)) {
    std::cerr << "bench --world: bad flags (--batch >= 1, --concurrency 1..64, --players 2..1000, --phase in "
                 "(0, 10m])\n";
    return 2;
  }
  absl::StatusOr<Client> channel = MakeClient();
  if (!channel.ok()) return Fail("client", channel.status());
  WorldClient client(*channel, {.recreate_lost_worlds = false});

  // The same world on the server and in process.
  const std::string id = absl::StrCat("bench-", getpid());
  const BotScale scale = BotScale::ForMap(map);
  const WorldSpec spec = MatchSpec(id, map, scale);
  absl::StatusOr<std::vector<StaticElement>> statics = CoreStatics(spec, absl::GetFlag(FLAGS_maps_dir));
  if (!statics.ok()) return Fail("the in-process world", statics.status());
  World core(CoreSettings(spec), *std::move(statics));
  absl::StatusOr<WorldInfo> info = client.CreateWorld(spec);
  if (!info.ok()) return Fail("creating the world", info.status());
  const DeleteOnExit deleter{client, id};
  absl::StatusOr<std::vector<Vec3>> floor = FindFloorPoints(client, id, scale, 4096, seed);
  if (!floor.ok()) return Fail("finding the floor", floor.status());
  if (floor->empty()) return Fail("finding the floor", absl::NotFoundError("no floor points"));

  // Warm-up ticks in both worlds, moves judged by the core.
  Match match(*std::move(floor), players, scale, kTickSeconds, seed);
  std::int64_t tick = 1;
  for (; tick <= kWarmupTicks; ++tick) {
    const Frame frame =
        tick == 1 ? match.SpawnFrame(tick) : match.ApplyMoves(tick, core.ValidateMoves(match.ProposeMoves()));
    if (!core.PushFrame(frame).ok()) return Fail("core frame", absl::InternalError("rejected"));
    if (absl::Status s = client.PushFrame(id, frame).status(); !s.ok()) return Fail("frame", s);
  }
  const std::vector<ShotRequest> shots =
      Cycle(match.Shots(tick - 1, (batch + players - 1) / players), static_cast<std::size_t>(batch));
  const std::vector<MoveRequest> moves = Cycle(match.ProposeMoves(), static_cast<std::size_t>(batch));

  // The service answers as the core does.
  absl::StatusOr<std::vector<ShotVerdict>> shot_check = client.ValidateShotsPacked(id, shots);
  if (!shot_check.ok()) return Fail("shots", shot_check.status());
  absl::StatusOr<std::vector<MoveVerdict>> move_check = client.ValidateMoves(id, moves);
  if (!move_check.ok()) return Fail("moves", move_check.status());
  const std::int64_t differences = Differences(*shot_check, core.ValidateShots(shots)) +
                                   Differences(*move_check, core.ValidateMoves(moves));

  std::vector<std::unique_ptr<TickTransport>> streams;
  std::string stream_error;
  for (int t = 0; t < concurrency; ++t) {
    absl::StatusOr<std::unique_ptr<TickTransport>> s = MakeTickTransport(client, id, "stream");
    if (!s.ok()) {
      stream_error = DescribeStatus(s.status());
      streams.clear();
      break;
    }
    streams.push_back(*std::move(s));
  }

  // The core, one thread.
  const std::int64_t n = batch;
  const Rate core_shots = ClosedLoop(1, phase, n, [&](int) {
    return core.ValidateShots(shots).size() == shots.size() ? absl::OkStatus() : absl::InternalError("size");
  });
  const Rate core_moves = ClosedLoop(1, phase, n, [&](int) {
    return core.ValidateMoves(moves).size() == moves.size() ? absl::OkStatus() : absl::InternalError("size");
  });

  // Service, unary and stream.
  const Rate unary_shots =
      ClosedLoop(concurrency, phase, n, [&](int) { return client.ValidateShotsPacked(id, shots).status(); });
  const Rate unary_moves =
      ClosedLoop(concurrency, phase, n, [&](int) { return client.ValidateMoves(id, moves).status(); });
  Rate stream_shots, stream_moves;
  if (!streams.empty()) {
    stream_shots = ClosedLoop(concurrency, phase, n,
                              [&](int t) { return streams[t]->Send(nullptr, shots, {}).status(); });
    stream_moves = ClosedLoop(concurrency, phase, n,
                              [&](int t) { return streams[t]->Send(nullptr, {}, moves).status(); });
  }

  // Frames: every bot's new pose each tick, made ahead so that the loops
  // time only the push (cycled, ticks renumbered in place: no copy).
  std::vector<Frame> frames;
  for (int i = 0; i < 1024; ++i) {
    frames.push_back(match.ApplyMoves(tick + i, core.ValidateMoves(match.ProposeMoves())));
  }
  std::int64_t core_tick = tick, service_tick = tick;
  std::size_t next_frame = 0;
  const auto next = [&](std::int64_t& last) -> const Frame& {
    Frame& f = frames[next_frame++ % frames.size()];
    f.tick = last++;
    return f;
  };
  const Rate core_frames = ClosedLoop(1, phase, 1, [&](int) {
    return core.PushFrame(next(core_tick)).ok() ? absl::OkStatus() : absl::InternalError("frame rejected");
  });
  const Rate unary_frames =
      ClosedLoop(1, phase, 1, [&](int) { return client.PushFrame(id, next(service_tick)).status(); });
  Rate stream_frames;
  if (!streams.empty()) {
    stream_frames =
        ClosedLoop(1, phase, 1, [&](int) { return streams[0]->Send(&next(service_tick), {}, {}).status(); });
  }

  // The tick message: a frame of every bot, 10 shots, 64 moves.
  const std::vector<MoveRequest> tick_moves = Cycle(moves, 64);
  const std::vector<ShotRequest> tick_shots = Cycle(shots, 10);
  std::unique_ptr<TickTransport> unary = *MakeTickTransport(client, id, "unary");
  const Rate unary_tick = ClosedLoop(
      1, phase, 1, [&](int) { return unary->Send(&next(service_tick), tick_shots, tick_moves).status(); });
  Rate stream_tick;
  if (!streams.empty()) {
    stream_tick = ClosedLoop(1, phase, 1, [&](int) {
      return streams[0]->Send(&next(service_tick), tick_shots, tick_moves).status();
    });
  }
  const Rate round_trip = ClosedLoop(1, phase, 1, [&](int) { return channel->GetServerInfo().status(); });
  // The same stream's round trip with nothing to run (the tick message's own
  // transport floor, a stricter reference than a unary call).
  Rate stream_ping;
  if (!streams.empty()) {
    stream_ping = ClosedLoop(1, phase, 1, [&](int) { return streams[0]->Send(nullptr, {}, {}).status(); });
  }

  std::cout << absl::StrFormat(
      "world %s on %s: %s, %d triangles; %d bots, %d ticks kept; batch %d, concurrency %d, %s a phase\n", id,
      channel->target(), map.empty() ? "the built-in arena" : map, info->triangles, players, kWarmupTicks,
      batch, concurrency, absl::FormatDuration(phase));
  std::cout << absl::StrFormat("answers equal to the core's: %s (%d of %d verdicts differ)\n",
                               differences == 0 ? "yes" : "NO", differences, 2 * batch);
  std::cout << absl::StrFormat(
      "  core (in process)      %11.0f shots/s  %11.0f moves/s  %9.0f frames/s (one thread)\n",
      core_shots.items_per_second, core_moves.items_per_second, core_frames.items_per_second);
  PrintRate("shots unary (packed)", "shots/s ", unary_shots, core_shots.items_per_second);
  PrintRate("moves unary", "moves/s ", unary_moves, core_moves.items_per_second);
  PrintRate("frames unary", "frames/s", unary_frames, core_frames.items_per_second);
  if (!streams.empty()) {
    PrintRate("shots stream", "shots/s ", stream_shots, core_shots.items_per_second);
    PrintRate("moves stream", "moves/s ", stream_moves, core_moves.items_per_second);
    PrintRate("frames stream", "frames/s", stream_frames, core_frames.items_per_second);
  } else {
    std::cout << "  stream: not measured: " << stream_error << "\n";
  }
  const double rtt = round_trip.latency.p50;
  std::cout << absl::StrFormat(
      "tick (frame of %d bodies, 10 shots, 64 moves): unary p50 %.0f us (%.2f x round trip)", players,
      unary_tick.latency.p50, rtt > 0 ? unary_tick.latency.p50 / rtt : 0.0);
  if (!streams.empty()) {
    std::cout << absl::StrFormat("  stream p50 %.0f us (%.2f x round trip)", stream_tick.latency.p50,
                                 rtt > 0 ? stream_tick.latency.p50 / rtt : 0.0);
  }
  std::cout << absl::StrFormat("\nround trip (GetServerInfo) p50 %.0f us  p99 %.0f us\n", rtt,
                               round_trip.latency.p99);
  if (!streams.empty()) {
    const double ping = stream_ping.latency.p50;
    std::cout << absl::StrFormat(
        "empty stream message p50 %.0f us  p99 %.0f us  (tick stream p50 / empty message p50 %.2f)\n", ping,
        stream_ping.latency.p99, ping > 0 ? stream_tick.latency.p50 / ping : 0.0);
  }
  const std::int64_t errors = unary_shots.errors + unary_moves.errors + unary_frames.errors +
                              stream_shots.errors + stream_moves.errors + stream_frames.errors +
                              unary_tick.errors + stream_tick.errors + stream_ping.errors;
  if (errors) std::cout << "errors: " << errors << "\n";
  return errors == 0 && differences == 0 ? 0 : 1;
}

}  // namespace collide::cli
