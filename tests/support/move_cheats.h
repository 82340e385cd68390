// Cheat trajectories for the move corpus (issue 31 item 4), made from the
// bots' legitimate states on the same map so that they start where players
// really are: through-wall teleports, moves into solids, flying, single-tick
// moves at 3x run speed, and a speed hack of 1.5x over one second.
#ifndef COLLIDE_TESTS_SUPPORT_MOVE_CHEATS_H_
#define COLLIDE_TESTS_SUPPORT_MOVE_CHEATS_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "collide/mesh.h"
#include "support/move_bots.h"
#include "support/quake_movement.h"

namespace collide::testing {

enum class CheatKind : int {
  kThroughWall,     // one tick to a standable point behind a wall (the box's way there is blocked).
  kIntoSolid,       // one tick at legal speed from against a wall to > kIntoSolidDepth inside it.
  kFlying,          // after a real jump, altitude held without ground for >= 0.5 s.
  kTripleSpeed,     // one tick at 3x run speed along a free path.
  kSustainedSpeed,  // the game run 1.5x faster than the clock (a timescale hack) for one second.
};
inline constexpr int kCheatKinds = 5;
// How deep a move into a solid ends inside it (the player's box; the
// harness also asks it of the movement shape it judges with).
inline constexpr double kIntoSolidDepth = 1.0;
std::string_view CheatName(CheatKind kind);

// A cheat: server-tick positions; each consecutive pair is one move of one
// tick. The cheat is caught when any of its moves is rejected.
struct CheatTrajectory {
  CheatKind kind = CheatKind::kThroughWall;
  std::vector<Vec3> positions;  // the player standing.
};

// Up to `per_kind` cheats of each kind (fewer when a map offers no place
// for them after many tries), deterministic per seed.
std::vector<CheatTrajectory> MakeCheats(const TriangleMesh& mesh, const QuakeMovementParams& params,
                                        std::span<const BotTrack> tracks, std::size_t commands_per_tick,
                                        int per_kind, std::uint64_t seed);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_MOVE_CHEATS_H_
