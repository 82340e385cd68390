// What the movement corpus needs of a Quake 3 BSP's entities, read from its
// entity lump (lump 0, text `{ "classname" "..." "origin" "x y z" ... }`)
// and models lump (lump 7, dmodel_t: float mins[3], maxs[3], then four
// ints); code/qcommon/qfiles.h. The map importer reads the static geometry
// only.
#ifndef COLLIDE_TESTS_SUPPORT_BSP_ENTITIES_H_
#define COLLIDE_TESTS_SUPPORT_BSP_ENTITIES_H_

#include <string_view>
#include <vector>

#include "collide/math.h"
#include "collide/shapes.h"

namespace collide::testing {

struct BspEntities {
  // Origins of info_player_deathmatch, info_player_start and the CTF team
  // spawns (team_CTF_{red,blue}{player,spawn}), in file order.
  std::vector<Vec3> spawns;
  // Bounds of the trigger_hurt brush models: where the game kills a player
  // (voids, lava), so the bots respawn there.
  std::vector<Aabb> hurt;
};

// Empty for a file that is not a version 46 "IBSP".
BspEntities ReadBspEntities(std::string_view bsp);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_BSP_ENTITIES_H_
