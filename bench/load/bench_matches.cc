// `collide bench --matches=M`: how many matches one replica carries. M
// simulated matches (world_match.h: --players bots each, on --map or the
// built-in arena) play at --tick_rate, each through its own Tick stream:
// every tick one message holding the frame (each bot where last tick's move
// verdict put it), --shots_per_second shots per player spread over the ticks
// (lagged head shots, validated), and every bot's next move (validated).
// With --visibility each message also asks for every player's visibility
// set (the worlds carry the map's occluders: AddOccluders), as a game server
// against wallhacks does every tick; the share of pairs hidden is reported.
// The tick latency is that message's round trip. Matches are phased evenly
// over a tick period (game servers are not in lockstep); a match whose
// answer comes back after its next tick was due skips the tick slots it
// missed (counted) instead of bursting to catch up.
//
// With --server_pid (the server on this machine) it also reports the
// server's CPU per match-second played (64 ticks answered at 64 ticks/s)
// over the measured --duration, and its resident memory per match (at the
// end of the run against before the worlds were created: meaningful on a
// fresh server, as scripts/matches-bench.sh starts one per run).
// --report_every prints a line per interval (the soak). The last line,
// "result key=value ...", is for scripts. Exit 1 on any failed call.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "commands.h"
#include "latency_stats.h"
#include "process_usage.h"
#include "world_floor.h"
#include "world_match.h"
#include "world_tick.h"

ABSL_DECLARE_FLAG(std::string, map);
ABSL_DECLARE_FLAG(int, players);
ABSL_DECLARE_FLAG(double, tick_rate);
ABSL_DECLARE_FLAG(std::string, transport);
ABSL_DECLARE_FLAG(absl::Duration, duration);
ABSL_DECLARE_FLAG(std::uint64_t, seed);
ABSL_DECLARE_FLAG(std::int64_t, ticks);
ABSL_FLAG(int, matches, 0, "bench: M simulated matches through the Tick stream (bench_matches.cc); 0: off");
ABSL_FLAG(double, shots_per_second, 10, "bench --matches: shots per player per second");
ABSL_FLAG(int, server_pid, 0,
          "bench --matches: pid of the server (on this machine) whose CPU and memory to report; 0: none");
ABSL_FLAG(bool, audit, false,
          "bench --matches: create the worlds with journal.audit (the server needs --audit_dir): the audit "
          "trail's cost");
ABSL_FLAG(bool, record_worlds, false,
          "bench --matches: create the worlds with journal.record (the server needs --recordings_dir): the "
          "match recordings' cost");
ABSL_FLAG(bool, visibility, false,
          "bench --matches: worlds with occluders, and every tick message asks for every player's visibility "
          "set (docs/visibility.md)");
ABSL_FLAG(int, visibility_reuse_ticks, 0,
          "bench --matches --visibility: the worlds' policy.visibility.reuse_ticks (0 to 64; "
          "docs/visibility.md)");
ABSL_FLAG(absl::Duration, report_every, absl::ZeroDuration(),
          "bench --matches: print a line per interval (ticks, p99, errors, server memory); 0: none");

namespace collide::cli {
namespace {

// What one match's thread records; `mu` guards the interval part, read by
// the reporting thread.
struct MatchStats {
  std::mutex mu;
  std::vector<double> interval_us;
  std::int64_t interval_errors = 0;
  std::vector<double> all_us;
  std::int64_t ticks = 0, missed = 0, errors = 0;
  std::int64_t shots = 0, confirmed = 0, moves = 0, moves_ok = 0;
  std::int64_t pairs = 0, hidden = 0;  // visibility sets.
  std::string first_error;
};

struct MatchRun {
  std::unique_ptr<TickTransport> transport;
  Match match;
  std::vector<MoveVerdict> last_moves;          // the verdicts of the moves sent last tick.
  std::optional<VisibilityRequest> visibility;  // asked every tick.
};

Clock::duration Seconds(double s) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// One match from its second tick until `end` or `max_ticks` answered ticks
// (0: no limit): the loop of the file comment.
void PlayMatch(MatchRun& run, std::int64_t players, double tick_rate, double shots_per_second,
               Clock::time_point first_due, Clock::time_point end, std::int64_t max_ticks,
               MatchStats& stats) {
  const Clock::duration period = Seconds(1 / tick_rate);
  const double shots_per_tick = static_cast<double>(players) * shots_per_second / tick_rate;
  double owed_shots = 0;
  std::size_t next_shooter = 0;
  std::int64_t tick = 2;  // tick 1 was the spawn.
  for (Clock::time_point due = first_due; due < end && (max_ticks == 0 || stats.ticks < max_ticks);
       due += period, ++tick) {
    std::this_thread::sleep_until(due);
    const Frame frame = run.match.ApplyMoves(tick, run.last_moves);
    // The tick's share of shots, from bots in turn (Shots makes one per bot).
    owed_shots += shots_per_tick;
    const auto n = static_cast<std::size_t>(owed_shots);
    owed_shots -= static_cast<double>(n);
    std::vector<ShotRequest> shots;
    if (n > 0) {
      const std::vector<ShotRequest> all = run.match.Shots(tick);
      for (std::size_t k = 0; k < n && !all.empty(); ++k) shots.push_back(all[next_shooter++ % all.size()]);
    }
    const std::vector<MoveRequest> moves = run.match.ProposeMoves();
    const Clock::time_point t0 = Clock::now();
    absl::StatusOr<TickAnswers> answers =
        run.transport->Send(&frame, shots, moves, run.visibility ? &*run.visibility : nullptr);
    const Clock::time_point t1 = Clock::now();
    if (!answers.ok()) {
      const std::lock_guard lock(stats.mu);
      ++stats.errors, ++stats.interval_errors;
      if (stats.first_error.empty()) stats.first_error = DescribeStatus(answers.status());
      return;  // the stream has ended.
    }
    for (const ShotVerdict& v : answers->shots) stats.confirmed += v.code == ShotCode::kConfirmed;
    for (const MoveVerdict& v : answers->moves) stats.moves_ok += v.code == MoveCode::kOk;
    stats.shots += static_cast<std::int64_t>(answers->shots.size());
    stats.moves += static_cast<std::int64_t>(answers->moves.size());
    if (answers->visibility)
      stats.pairs += answers->visibility->pairs, stats.hidden += answers->visibility->hidden;
    run.last_moves = std::move(answers->moves);
    {
      const std::lock_guard lock(stats.mu);
      stats.interval_us.push_back(Micros(t1 - t0));
      ++stats.ticks;
    }
    // Past the next tick already: skip to the first slot still ahead. The
    // tick numbers stay consecutive (the match's lag compensation counts
    // frames back; a gap would point past its memory).
    if (t1 > due + period) {
      const auto behind = (t1 - due) / period;  // whole periods; >= 1.
      stats.missed += behind;
      due += period * behind;
    }
  }
}

int Fail(std::string_view what, const absl::Status& status) {
  std::cerr << "bench --matches: " << what << ": " << DescribeStatus(status) << "\n";
  return 1;
}

std::optional<ProcessUsage> ServerUsage(int pid) {
  if (pid <= 0) return std::nullopt;
  absl::StatusOr<ProcessUsage> u = ReadProcessUsage(pid);
  return u.ok() ? std::optional(*u) : std::nullopt;
}

}  // namespace

int RunMatchesBench() {
  const int matches = absl::GetFlag(FLAGS_matches);
  const std::string map = absl::GetFlag(FLAGS_map);
  const int players = absl::GetFlag(FLAGS_players) == 0 ? 64 : absl::GetFlag(FLAGS_players);
  const double tick_rate = absl::GetFlag(FLAGS_tick_rate);
  const double shots_per_second = absl::GetFlag(FLAGS_shots_per_second);
  const absl::Duration duration = absl::GetFlag(FLAGS_duration);
  const absl::Duration report_every = absl::GetFlag(FLAGS_report_every);
  const int server_pid = absl::GetFlag(FLAGS_server_pid);
  const std::uint64_t seed = absl::GetFlag(FLAGS_seed);
  const std::int64_t max_ticks = absl::GetFlag(FLAGS_ticks);
  const bool visibility = absl::GetFlag(FLAGS_visibility);
  if (max_ticks < 0 || matches < 1 || matches > 4096 || players < 2 || players > 1000 ||
      !(tick_rate > 0 && tick_rate <= 1000) ||
      !(shots_per_second >= 0 && shots_per_second <= tick_rate * 16) || duration <= absl::ZeroDuration() ||
      duration > absl::Hours(2) || report_every < absl::ZeroDuration()) {
    std::cerr
        << "bench --matches: bad flags (--matches 1..4096, --players 2..1000, --tick_rate in (0, 1000], "
           "--shots_per_second in [0, 16 x tick rate], --duration in (0, 2h], --ticks >= 0)\n";
    return 2;
  }
  if (server_pid > 0 && !ReadProcessUsage(server_pid).ok()) {
    return Fail("--server_pid", absl::NotFoundError(absl::StrCat("no process ", server_pid, " here")));
  }
  absl::StatusOr<Client> channel = MakeClient();
  if (!channel.ok()) return Fail("client", channel.status());
  // A lost world is a failure here, not something to repair.
  WorldClient client(*channel, {.recreate_lost_worlds = false});
  const std::optional<ProcessUsage> before = ServerUsage(server_pid);

  // The worlds, deleted however the run ends; the floor found once (every
  // match is on the same map).
  const BotScale scale = BotScale::ForMap(map);
  std::vector<std::unique_ptr<DeleteOnExit>> deleters;
  std::vector<std::string> ids;
  for (int i = 0; i < matches; ++i) {
    ids.push_back(absl::StrCat("match-", getpid(), "-", i));
    WorldSpec spec = MatchSpec(ids.back(), map, scale);
    spec.journal.audit = absl::GetFlag(FLAGS_audit);
    spec.journal.record = absl::GetFlag(FLAGS_record_worlds);
    if (visibility) {
      AddOccluders(spec, map, scale);
      spec.policy.visibility->reuse_ticks = absl::GetFlag(FLAGS_visibility_reuse_ticks);
    }
    absl::StatusOr<WorldInfo> info = client.CreateWorld(spec);
    if (!info.ok()) return Fail(absl::StrCat("creating world ", i + 1, " of ", matches), info.status());
    deleters.push_back(std::unique_ptr<DeleteOnExit>(new DeleteOnExit{client, ids.back()}));
  }
  absl::StatusOr<std::vector<Vec3>> floor = FindFloorPoints(client, ids[0], scale, 4096, seed);
  if (!floor.ok()) return Fail("finding the floor", floor.status());
  if (floor->empty()) return Fail("finding the floor", absl::NotFoundError("no floor points"));

  // Each match's stream, and its spawn (tick 1: the frame and the first moves).
  std::vector<std::unique_ptr<MatchRun>> runs;
  std::string transport_name;
  for (int i = 0; i < matches; ++i) {
    absl::StatusOr<std::unique_ptr<TickTransport>> t =
        MakeTickTransport(client, ids[i], absl::GetFlag(FLAGS_transport));
    if (!t.ok()) return Fail(absl::StrCat("opening match ", i + 1, "'s transport"), t.status());
    transport_name = (*t)->name();
    auto run = std::make_unique<MatchRun>(
        MatchRun{*std::move(t), Match(*floor, players, scale, 1 / tick_rate, seed + i), {}, std::nullopt});
    if (visibility) run->visibility = MatchVisibilityRequest(scale, tick_rate);
    const Frame spawn = run->match.SpawnFrame(1);
    absl::StatusOr<TickAnswers> answers = run->transport->Send(&spawn, {}, run->match.ProposeMoves());
    if (!answers.ok()) return Fail(absl::StrCat("match ", i + 1, "'s spawn"), answers.status());
    run->last_moves = std::move(answers->moves);
    runs.push_back(std::move(run));
  }
  std::cout << absl::StrFormat(
      "%d matches of %d players on %s at %g ticks/s, %g shots per player per second%s, through %s; %d floor "
      "points; %s\n",
      matches, players, map.empty() ? "the built-in arena" : map, tick_rate, shots_per_second,
      visibility ? ", visibility sets every tick" : "", transport_name, floor->size(),
      absl::FormatDuration(duration));
  std::cout.flush();

  // The measured run.
  std::vector<MatchStats> stats(static_cast<std::size_t>(matches));
  rusage self_before{};
  getrusage(RUSAGE_SELF, &self_before);
  const double load_before = LoadAverage();
  const std::optional<ProcessUsage> cpu_before = ServerUsage(server_pid);
  const Clock::time_point start = Clock::now();
  const Clock::time_point end = start + absl::ToChronoNanoseconds(duration);
  {
    std::vector<std::jthread> threads;
    for (int i = 0; i < matches; ++i) {
      const Clock::time_point first_due = start + Seconds(i / (tick_rate * matches));
      threads.emplace_back([&, i, first_due] {
        PlayMatch(*runs[i], players, tick_rate, shots_per_second, first_due, end, max_ticks, stats[i]);
      });
    }
    if (report_every > absl::ZeroDuration()) {
      threads.emplace_back([&] {
        for (Clock::time_point next = start + absl::ToChronoNanoseconds(report_every); next < end;
             next += absl::ToChronoNanoseconds(report_every)) {
          std::this_thread::sleep_until(next);
          std::vector<double> us;
          std::int64_t errors = 0;
          for (MatchStats& s : stats) {
            const std::lock_guard lock(s.mu);
            us.insert(us.end(), s.interval_us.begin(), s.interval_us.end());
            s.all_us.insert(s.all_us.end(), s.interval_us.begin(), s.interval_us.end());
            s.interval_us.clear();
            errors += s.interval_errors;
            s.interval_errors = 0;
          }
          const Percentiles p = Summarize(us);
          const std::optional<ProcessUsage> now = ServerUsage(server_pid);
          std::cout << absl::StrFormat(
              "%7.1fs  ticks %7d  p50 %6.0f us  p99 %6.0f us  max %7.0f us  errors %d  server rss %s  load "
              "%.1f\n",
              std::chrono::duration<double>(Clock::now() - start).count(), us.size(), p.p50, p.p99, p.max,
              errors, now ? absl::StrFormat("%.1f MB", now->rss_mb) : std::string("-"), LoadAverage());
          std::cout.flush();
        }
      });
    }
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const std::optional<ProcessUsage> after = ServerUsage(server_pid);
  rusage self_after{};
  getrusage(RUSAGE_SELF, &self_after);
  const auto cpu = [](const rusage& r) {
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
  };
  const double self_cpu = cpu(self_after) - cpu(self_before);

  std::vector<double> us;
  std::int64_t ticks = 0, missed = 0, errors = 0, shots = 0, confirmed = 0, moves = 0, moves_ok = 0;
  std::int64_t pairs = 0, hidden = 0;
  std::string first_error;
  for (MatchStats& s : stats) {
    us.insert(us.end(), s.all_us.begin(), s.all_us.end());
    us.insert(us.end(), s.interval_us.begin(), s.interval_us.end());
    ticks += s.ticks, missed += s.missed, errors += s.errors;
    shots += s.shots, confirmed += s.confirmed, moves += s.moves, moves_ok += s.moves_ok;
    pairs += s.pairs, hidden += s.hidden;
    if (first_error.empty()) first_error = s.first_error;
  }
  const Percentiles p = Summarize(us);
  // Match-seconds played: the ticks answered at the tick rate (a match that
  // missed slots played less than the wall time), so that the CPU per
  // match-second is per unit of work even when the server falls behind.
  const double match_seconds = static_cast<double>(ticks) / tick_rate;
  std::cout << absl::StrFormat(
      "ticks %d (%.0f/s of %.0f/s), missed %d; shots %d (%.0f/s, %.0f%% CONFIRMED), moves %d (%.0f/s, %.0f%% "
      "OK); errors %d\n",
      ticks, ticks / elapsed, matches * tick_rate, missed, shots, shots / elapsed,
      shots ? 100.0 * confirmed / shots : 0.0, moves, moves / elapsed, moves ? 100.0 * moves_ok / moves : 0.0,
      errors);
  if (visibility) {
    std::cout << absl::StrFormat(
        "visibility: %d observer-target pairs judged (%.0f per tick), %.1f%% hidden\n", pairs,
        ticks ? static_cast<double>(pairs) / ticks : 0.0, pairs ? 100.0 * hidden / pairs : 0.0);
  }
  std::cout << absl::StrFormat(
      "tick latency (frame + shots + moves%s, round trip) p50 %.0f us  p90 %.0f us  p99 "
      "%.0f us  max %.0f us\n",
      visibility ? " + visibility" : "", p.p50, p.p90, p.p99, p.max);
  // The server's own accounting of one world (statics and history).
  absl::StatusOr<WorldInfo> world = client.GetWorld(ids[0]);
  const double world_mb = world.ok() ? static_cast<double>(world->memory_bytes) / (1 << 20) : -1;
  double cpu_ms = -1, rss_per_match = -1, server_cpu_pct = -1;
  if (before && cpu_before && after && ticks > 0) {
    cpu_ms = 1000 * (after->cpu_seconds - cpu_before->cpu_seconds) / match_seconds;
    server_cpu_pct = 100 * (after->cpu_seconds - cpu_before->cpu_seconds) / elapsed;
    rss_per_match = (after->rss_mb - before->rss_mb) / matches;
    std::cout << absl::StrFormat(
        "server: %.2f ms CPU per match-second (%.0f%% of a core); RSS %.1f MB before the worlds, %.1f MB at "
        "the "
        "end: %.2f MB per match (a world's own accounting: %.2f MB)\n",
        cpu_ms, server_cpu_pct, before->rss_mb, after->rss_mb, rss_per_match, world_mb);
  }
  std::cout << absl::StrFormat(
      "load generator: %.0f%% of a core (%.2f ms per match-second); load average %.1f -> %.1f on %d cores\n",
      100 * self_cpu / elapsed, 1000 * self_cpu / std::max(match_seconds, 1e-9), load_before, LoadAverage(),
      std::thread::hardware_concurrency());
  if (!first_error.empty()) std::cout << "first error: " << first_error << "\n";
  std::cout << absl::StrFormat(
      "result matches=%d p50_us=%.0f p99_us=%.0f max_us=%.0f errors=%d ticks=%d missed=%d "
      "cpu_ms_per_match_s=%.2f "
      "rss_mb_per_match=%.2f world_mb=%.2f rss_mb_end=%.1f server_cpu_pct=%.0f client_cpu_pct=%.0f "
      "load=%.1f visibility=%d hidden_pct=%.1f\n",
      matches, p.p50, p.p99, p.max, errors, ticks, missed, cpu_ms, rss_per_match, world_mb,
      after ? after->rss_mb : -1.0, server_cpu_pct, 100 * self_cpu / elapsed, LoadAverage(),
      visibility ? 1 : 0, pairs ? 100.0 * hidden / pairs : 0.0);
  return errors == 0 && ticks > 0 ? 0 : 1;
}

}  // namespace collide::cli
