// Bots that play a map with the Quake-style movement of quake_movement.h:
// each wanders between waypoints (spawn points and places it has stood on),
// turning, jumping, strafe-jumping, crouching and stopping now and then, one
// 16 ms client command at a time; deterministic per seed. Their recorded
// states are the legitimate half of the move corpus (docs/move-corpus.md).
#ifndef COLLIDE_TESTS_SUPPORT_MOVE_BOTS_H_
#define COLLIDE_TESTS_SUPPORT_MOVE_BOTS_H_

#include <cstdint>
#include <span>
#include <vector>

#include "collide/mesh.h"
#include "support/quake_movement.h"

namespace collide::testing {

// The client command length: a 62.5 Hz client (com_maxfps / cl_maxpackets
// settings of the game are of this order).
inline constexpr double kCommandSeconds = 0.016;

// One recorded command: the command and the player after it.
struct BotSample {
  QuakeCommand cmd;
  QuakePlayer after;
  bool respawned = false;  // put back at a spawn point (killed or stuck): no move into this sample.
};

struct BotTrack {
  QuakePlayer start;
  std::vector<BotSample> samples;  // one per client command.
};

struct BotRunOptions {
  int bots = 16;
  double seconds = 60.0;
  std::uint64_t seed = 1;
};

// Runs `options.bots` bots from `spawns` (each a spawn origin as the map
// gives it; the player is placed 9 units above, as the game's
// SelectSpawnPoint does). Spawns whose box would start inside the mesh are
// left out; with none left, no bot runs. A bot whose box enters a `hurt`
// box (trigger_hurt: voids, lava) dies there and respawns, as one stuck
// for long does.
std::vector<BotTrack> RunBots(const TriangleMesh& mesh, std::span<const Vec3> spawns,
                              std::span<const Aabb> hurt, const QuakeMovementParams& params,
                              const BotRunOptions& options);

// The player's state at server tick k of a track whose server ticks each
// cover `commands_per_tick` commands: tick 0 is the start.
const QuakePlayer& StateAtTick(const BotTrack& track, std::size_t commands_per_tick, std::size_t tick);
std::size_t TickCount(const BotTrack& track, std::size_t commands_per_tick);
// Whether the move into server tick k (k >= 1) crosses a respawn.
bool RespawnedBefore(const BotTrack& track, std::size_t commands_per_tick, std::size_t tick);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_MOVE_BOTS_H_
