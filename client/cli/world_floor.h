// Where bots can stand in a world the server holds: points on its floors,
// found by casting rays straight down (the CLI does not need the map file).
#ifndef COLLIDE_CLIENT_CLI_WORLD_FLOOR_H_
#define COLLIDE_CLIENT_CLI_WORLD_FLOOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/world_client.h"
#include "world_arena.h"

namespace collide::cli {

// Up to `max_points` floor points of the world `world_id` (no bodies yet),
// shuffled by `seed`. Three passes, each a few calls:
// 1. closest-hit rays down over a 64 x 64 grid of +-200 player heights find
//    the geometry's horizontal extent and top;
// 2. rays down over a 64 x 64 grid of that extent, every hit kept (RAY_MODE_ALL):
//    a hit is a candidate when its surface is walkable (normal within 45
//    degrees of up) and the previous hit on the ray lies at least a player
//    height above it (so the roof of an enclosed level, hit first, never is);
// 3. a candidate is kept when the bots' movement capsule standing there
//    overlaps nothing (not inside a solid shape, not under a low ceiling,
//    not against a wall).
// Assumes z up (the arena, Quake maps). A point inside a thick closed mesh
// (a solid brush taller than a player) can pass; moves from it are blocked.
absl::StatusOr<std::vector<Vec3>> FindFloorPoints(WorldClient& client, const std::string& world_id,
                                                  const BotScale& scale, std::size_t max_points,
                                                  std::uint64_t seed);

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_FLOOR_H_
