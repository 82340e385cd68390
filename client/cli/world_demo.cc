// `collide world demo [--map FILE[:MAP]] [--players N] [--seconds S] [--ticks N] [--record FILE]`: a
// simulated match against the server, what a new user runs right after the
// start command to see worlds work. It creates a world (the built-in arena,
// or a map file from the server's --maps_dir), finds floor points by casting
// rays down, spawns bots there and runs ticks at --tick_rate: each tick the
// bots' moves are validated (they walk where the verdicts allow), the frame
// is pushed and every bot shoots at another's head as it saw it up to 4
// ticks ago. A line per second gives ticks, frames/s, shots/s, verdict counts
// and the tick latency (all of a tick's calls); a summary ends the run, and
// the world is deleted. Exit 1 on any failed call or when no shot was judged.
// --record FILE writes every call on the world with its answer as a match
// recording, for `collide world replay`.
#include <unistd.h>

#include <array>
#include <iostream>
#include <map>
#include <thread>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "commands.h"
#include "latency_stats.h"
#include "world_floor.h"
#include "world_match.h"
#include "world_record.h"
#include "world_tick.h"

ABSL_DECLARE_FLAG(std::string, map);
ABSL_DECLARE_FLAG(std::uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, maps_dir);
ABSL_FLAG(int, players, 0,
          "world demo and bench --world: bots in the match (0: 16 for the demo, 64 for the bench)");
ABSL_FLAG(double, seconds, 10, "world demo: how long the match runs");
ABSL_FLAG(std::int64_t, ticks, 0,
          "world demo and bench --matches: stop after N ticks (each match's, in the bench), the duration "
          "(--seconds, --duration) then only a cap; 0: run for the duration");
ABSL_FLAG(double, tick_rate, 64, "world demo: ticks per second (0: as fast as the server answers)");
ABSL_FLAG(std::string, record, "",
          "world demo: write a match recording of the demo's world to this file (docs/replay.md; map "
          "files pinned from --maps_dir)");
ABSL_FLAG(std::string, transport, "auto",
          "world demo and bench --world: stream (the Tick stream), unary, or auto (the stream when the "
          "server has it)");

namespace collide::cli {
namespace {

constexpr int kShotCodes = static_cast<int>(ShotCode::kViewTimeImplausible) + 1;
constexpr int kMoveCodes = static_cast<int>(MoveCode::kTimeBudget) + 1;

struct Tally {
  std::int64_t ticks = 0, shots = 0, moves = 0;
  std::array<std::int64_t, kShotCodes> shot_codes{};
  std::array<std::int64_t, kMoveCodes> move_codes{};
  std::vector<double> tick_us;

  void Add(const Tally& o) {
    ticks += o.ticks, shots += o.shots, moves += o.moves;
    for (int i = 0; i < kShotCodes; ++i) shot_codes[i] += o.shot_codes[i];
    for (int i = 0; i < kMoveCodes; ++i) move_codes[i] += o.move_codes[i];
    tick_us.insert(tick_us.end(), o.tick_us.begin(), o.tick_us.end());
  }
};

// " NAME count" for each code counted, in code order.
template <typename Code, std::size_t N>
std::string Counts(const std::array<std::int64_t, N>& counts, std::string_view (*name)(Code)) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) {
    if (counts[i] > 0) absl::StrAppend(&out, " ", std::string(name(static_cast<Code>(i))), " ", counts[i]);
  }
  return out.empty() ? " none" : out;
}
std::string ShotCounts(const Tally& t) { return Counts(t.shot_codes, &ShotCodeName); }
std::string MoveCounts(const Tally& t) { return Counts(t.move_codes, &MoveCodeName); }

int Fail(std::string_view what, const absl::Status& status) {
  std::cerr << "world demo: " << what << ": " << DescribeStatus(status) << "\n";
  return 1;
}

}  // namespace

int RunWorldDemo(const std::vector<std::string>& args) {
  const std::string map = absl::GetFlag(FLAGS_map);
  const int players = absl::GetFlag(FLAGS_players) == 0 ? 16 : absl::GetFlag(FLAGS_players);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  const double tick_rate = absl::GetFlag(FLAGS_tick_rate);
  const std::int64_t max_ticks = absl::GetFlag(FLAGS_ticks);
  const std::uint64_t seed = absl::GetFlag(FLAGS_seed);
  if (!args.empty() || players < 1 || players > 1000 || !(seconds > 0 && seconds <= 3600) ||
      !(tick_rate >= 0 && tick_rate <= 10000) || max_ticks < 0) {
    std::cerr << "world demo: bad arguments (--players 1..1000, --seconds in (0, 3600], --tick_rate in "
                 "[0, 10000], --ticks >= 0)\n";
    return 2;
  }
  absl::StatusOr<Client> channel = MakeClient();
  if (!channel.ok()) return Fail("client", channel.status());
  std::vector<HistoryLoss> losses;
  const std::string record_path = absl::GetFlag(FLAGS_record);
  const auto recorder = record_path.empty()
                            ? nullptr
                            : std::make_shared<FileRecorder>(record_path, absl::GetFlag(FLAGS_maps_dir));
  // A recording must hold the world as the server ran it: no re-creation.
  WorldClient client(*channel, {.recreate_lost_worlds = recorder == nullptr,
                                .on_history_lost = [&losses](const HistoryLoss& l) { losses.push_back(l); },
                                .recorder = recorder});

  const std::string id = absl::StrCat("demo-", getpid());
  const BotScale scale = BotScale::ForMap(map);
  absl::StatusOr<WorldInfo> info = client.CreateWorld(MatchSpec(id, map, scale));
  if (!info.ok()) return Fail("creating the world", info.status());
  std::cout << absl::StrFormat("world %s on %s: %s, %d triangles, %d static elements\n", id,
                               channel->target(), map.empty() ? "the built-in arena" : map, info->triangles,
                               info->static_elements);
  // From here on the world is deleted however the run ends.
  const DeleteOnExit deleter{client, id};

  absl::StatusOr<std::vector<Vec3>> floor = FindFloorPoints(client, id, scale, 4096, seed);
  if (!floor.ok()) return Fail("finding the floor", floor.status());
  if (floor->empty()) {
    std::cerr << "world demo: no floor points found (the demo assumes z up and a floor under a roof)\n";
    return 1;
  }
  absl::StatusOr<std::unique_ptr<TickTransport>> transport =
      MakeTickTransport(client, id, absl::GetFlag(FLAGS_transport));
  if (!transport.ok()) return Fail("opening the tick transport", transport.status());
  const double tick_seconds = tick_rate > 0 ? 1.0 / tick_rate : 1.0 / 64;
  const std::size_t floor_points = floor->size();
  Match match(*std::move(floor), players, scale, tick_seconds, seed);
  std::cout << absl::StrFormat("%d bots, %d floor points, %s ticks through %s\n", players, floor_points,
                               tick_rate > 0 ? absl::StrCat(tick_rate, " Hz") : std::string("unpaced"),
                               (*transport)->name());

  Tally total, second;
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  Clock::time_point next_line = start + std::chrono::seconds(1);
  Clock::time_point last_line = start;
  std::int64_t tick = 1;
  absl::Status failure;
  for (; Clock::now() < end && (max_ticks == 0 || tick <= max_ticks); ++tick) {
    const Clock::time_point t0 = Clock::now();
    Frame frame;
    if (tick == 1) {
      frame = match.SpawnFrame(tick);
    } else {
      const std::vector<MoveRequest> moves = match.ProposeMoves();
      absl::StatusOr<TickAnswers> answers = (*transport)->Send(nullptr, {}, moves);
      if (!answers.ok()) {
        failure = answers.status();
        break;
      }
      for (const MoveVerdict& v : answers->moves) ++second.move_codes[static_cast<int>(v.code)];
      second.moves += static_cast<std::int64_t>(answers->moves.size());
      frame = match.ApplyMoves(tick, answers->moves);
    }
    const std::vector<ShotRequest> shots = match.Shots(tick);
    absl::StatusOr<TickAnswers> answers = (*transport)->Send(&frame, shots, {});
    if (!answers.ok()) {
      failure = answers.status();
      break;
    }
    for (const ShotVerdict& v : answers->shots) ++second.shot_codes[static_cast<int>(v.code)];
    second.shots += static_cast<std::int64_t>(answers->shots.size());
    ++second.ticks;
    const Clock::time_point t1 = Clock::now();
    second.tick_us.push_back(Micros(t1 - t0));

    if (t1 >= next_line) {
      const double dt = std::chrono::duration<double>(t1 - last_line).count();
      std::vector<double> us = second.tick_us;
      const Percentiles p = Summarize(us);
      std::cout << absl::StrFormat(
          "%5.1fs  ticks %6d  frames/s %6.0f  shots/s %7.0f  tick p50 %5.0f us  p99 %6.0f us  shots:%s  "
          "moves:%s\n",
          std::chrono::duration<double>(t1 - start).count(), total.ticks + second.ticks, second.ticks / dt,
          second.shots / dt, p.p50, p.p99, ShotCounts(second), MoveCounts(second));
      std::cout.flush();
      total.Add(second);
      second = Tally{};
      last_line = t1;
      next_line = t1 + std::chrono::seconds(1);
    }
    if (tick_rate > 0) {
      const Clock::time_point due = start + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(tick * tick_seconds));
      std::this_thread::sleep_until(due);
    }
  }
  total.Add(second);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const Percentiles p = Summarize(total.tick_us);
  std::cout << absl::StrFormat(
      "summary: %d ticks in %.1f s (%.0f frames/s), %d shots (%.0f/s), %d moves (%.0f/s), %d bots\n"
      "  shots:%s\n  moves:%s\n  tick latency p50 %.0f us  p90 %.0f us  p99 %.0f us  max %.0f us (%s)\n",
      total.ticks, elapsed, total.ticks / elapsed, total.shots, total.shots / elapsed, total.moves,
      total.moves / elapsed, players, ShotCounts(total), MoveCounts(total), p.p50, p.p90, p.p99, p.max,
      (*transport)->name());
  for (const HistoryLoss& l : losses) {
    std::cout << "  the server lost the world; re-created at tick " << l.restored_tick.value_or(0)
              << " (history lost)\n";
  }
  if (recorder != nullptr) {
    transport->reset();  // The stream's last answers are read before the file closes.
    if (absl::Status closed = recorder->Close(); !closed.ok()) return Fail("recording", closed);
    std::cout << absl::StrFormat("recorded %d calls to %s\n", recorder->calls(), record_path);
  }
  if (!failure.ok()) return Fail(absl::StrCat("tick ", tick), failure);
  return total.shots > 0 ? 0 : 1;
}

}  // namespace collide::cli
