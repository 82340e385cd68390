// Random standing places of the Quake player (a 32 x 32 x 56 box from the
// feet) in a map's open space, for the visibility test and benchmark.
#ifndef COLLIDE_TESTS_SUPPORT_OPEN_FLOOR_H_
#define COLLIDE_TESTS_SUPPORT_OPEN_FLOOR_H_

#include <random>
#include <vector>

#include "collide/mesh.h"

namespace collide::testing {

inline constexpr double kPlayerHalfWidth = 16, kPlayerHeight = 56, kPlayerEyeHeight = 50;

// Feet positions: the floor under a random point of the mesh's bounds (a
// surface facing up), the player's box there free of the mesh, and
// geometry around the eye in the four horizontal directions and above (not
// the void outside the map). With `solids` (closed shells, counter-clockwise
// seen from outside: the importer's occluder brushes), the eye and the feet
// are outside every shell (a box inside a thick brush touches no surface).
std::vector<Vec3> OpenFloorPoints(const TriangleMesh& mesh, const TriangleMesh* solids, std::mt19937_64& rng,
                                  int count);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_OPEN_FLOOR_H_
