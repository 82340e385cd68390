// The worlds `collide world demo` and `collide bench --world` play in: the
// built-in arena (no map files needed: what a new user gets right after the
// start command), or a map file the server loads from its --maps_dir. Also
// the bots' sizes in the world's length unit.
#ifndef COLLIDE_CLIENT_CLI_WORLD_ARENA_H_
#define COLLIDE_CLIENT_CLI_WORLD_ARENA_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "collide/world.h"
#include "collide/world_client.h"

namespace collide::cli {

// Part ids of a bot's hitboxes.
enum BotPart : std::int32_t { kBotHead = 0, kBotChest = 1, kBotLegs = 2 };

// A player's size and speed in the world's unit.
struct BotScale {
  double height = 1.8;  // feet to the top of the head.
  double radius = 0.4;  // of the movement capsule.
  double eye = 1.6;     // shot origins, above the feet.
  double speed = 6.0;   // units per second.

  // Metres for the arena and glTF/OBJ maps; Quake units for .bsp and .pk3
  // maps (a player 56 tall, 30 wide, eyes at 50, running at 320 u/s).
  static BotScale ForMap(std::string_view map_file);
  // The movement shape in the body frame (feet at the origin): radius wide,
  // from a 20th of a height above the feet (clear of the floor) to the top.
  Capsule MovementCapsule() const;
  // Hitboxes: head (sphere), chest and legs (capsules), in the body frame.
  std::vector<BodyPart> Hitboxes() const;
};

// A 40 m x 40 m hall, 6 m high (floor, roof and walls: one mesh), with
// full-height pillars and waist-high crates (boxes) and a free-standing wall
// with a doorway: line of sight is blocked often enough for every verdict.
std::vector<WorldStatic> ArenaStatics();

// "FILE" or "FILE:MAP" (a map inside a .pk3) as a map file reference.
MapFileRef ParseMapFlag(std::string_view flag);

// The world spec of `map` (empty: the arena) with a policy fit for `scale`:
// speed limit 1.5x the bots' speed, origin offset up to one height, skin
// width a 180th of a height.
WorldSpec MatchSpec(std::string world_id, std::string_view map, const BotScale& scale);

// Visibility sets on (docs/visibility.md): occluders under a category bit
// of their own, kept out of the moves' and shots' masks: a map's OCCLUDER
// brushes, or copies of the arena's pillars and crates (its hall is open
// quads, not closed solids); voxels a seventh of a player's height.
void AddOccluders(WorldSpec& spec, std::string_view map, const BotScale& scale);

// The visibility sets a game server asks for every tick: every observer,
// looking 100 ms ahead, with a margin of what a player runs in 50 ms.
VisibilityRequest MatchVisibilityRequest(const BotScale& scale, double tick_rate);

// The spec's statics as core elements, for running the same world in
// process: map files read from `maps_dir` with the import library.
absl::StatusOr<std::vector<StaticElement>> CoreStatics(const WorldSpec& spec, const std::string& maps_dir);

// The core settings the server derives from the spec (unset policy fields:
// the core's defaults).
WorldSettings CoreSettings(const WorldSpec& spec);

// Deletes the world when it goes out of scope (errors ignored): the demo's
// and the bench's worlds do not outlive them.
struct DeleteOnExit {
  WorldClient& client;
  std::string id;
  ~DeleteOnExit() { client.DeleteWorld(id).IgnoreError(); }
};

}  // namespace collide::cli

#endif  // COLLIDE_CLIENT_CLI_WORLD_ARENA_H_
