// A simulated match for `collide world demo` and `collide bench --world`:
// bots walking on a world's floor points and shooting at each other every
// tick, as a game server would report them. Pure: the caller sends the
// messages (through a WorldClient or to an in-process World) and feeds the
// move verdicts back.
#ifndef COLLIDE_CLIENT_CLI_WORLD_MATCH_H_
#define COLLIDE_CLIENT_CLI_WORLD_MATCH_H_

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "collide/world.h"
#include "world_arena.h"

namespace collide::cli {

class Match {
 public:
  // Bots 1..players spawn at distinct floor points (`floor` must not be
  // empty); `tick_seconds` is a tick's duration.
  Match(std::vector<Vec3> floor, int players, BotScale scale, double tick_seconds, std::uint64_t seed);

  // The first frame: every bot with its hitboxes, movement capsule and pose.
  Frame SpawnFrame(std::int64_t tick);
  // Each bot's step toward its waypoint this tick (moves[i] is bot i + 1's),
  // from its current position, sliding.
  std::vector<MoveRequest> ProposeMoves() const;
  // The frame of tick `tick`: each bot where its verdict allows (OK: the
  // step; BLOCKED: the slid position, then a new waypoint; otherwise it stays
  // and picks a new waypoint).
  Frame ApplyMoves(std::int64_t tick, const std::vector<MoveVerdict>& verdicts);
  // One shot per bot at another bot's head as the shooter saw it 0 to 4
  // ticks ago (lag compensation), aimed with a little noise; `shots_per_bot`
  // of them per bot. Call after the tick's frame.
  std::vector<ShotRequest> Shots(std::int64_t tick, int shots_per_bot = 1);

  int players() const { return static_cast<int>(bots_.size()); }
  const BotScale& scale() const { return scale_; }

 private:
  struct Bot {
    Vec3 position;
    Vec3 waypoint;
    std::deque<Vec3> past;  // positions of the last ticks, newest first.
  };
  Vec3 PickWaypoint(const Vec3& from);
  void Remember(std::int64_t tick);

  std::vector<Vec3> floor_;
  BotScale scale_;
  double tick_seconds_;
  std::mt19937_64 rng_;
  std::vector<Bot> bots_;
  std::int64_t first_tick_ = 0;
};

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_MATCH_H_
