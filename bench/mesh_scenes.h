// The inputs of bench/mesh_bench.cc: meshes (synthetic, and OpenArena maps
// when the import library is built) with the rays and capsules every library
// is measured on, in Quake units (a player is 56 units tall).
#ifndef COLLIDE_BENCH_MESH_SCENES_H_
#define COLLIDE_BENCH_MESH_SCENES_H_

#include <string>
#include <vector>

#include "collide/mesh_data.h"
#include "collide/shapes.h"

namespace collide::bench {

// Player capsule (Quake 3's 30 x 56 box as a capsule) and eye height.
inline constexpr double kPlayerRadius = 15.0;
inline constexpr double kPlayerHeight = 56.0;
inline constexpr double kEyeHeight = 48.0;

struct MeshScene {
  std::string name;
  MeshData data;
  // Incoherent rays: from eye points above random floors, uniformly random
  // unit directions, unbounded.
  std::vector<Ray> rays;
  // Line of sight between two eye points: unit direction, max_distance = the
  // points' distance.
  std::vector<Ray> sight;
  // Player capsules standing on random floors, 1 unit into them.
  std::vector<Capsule> capsules;
};

inline constexpr int kQueriesPerScene = 4096;

// The synthetic scenes: "terrain" (131k triangles), "boxes" (60k) and
// "terrain_1m" (1M). Built on first use.
const std::vector<MeshScene>& SyntheticScenes();
// The OpenArena maps (pak6-patch088.pk3) named in mesh_bench.cc, when the
// import library is built (COLLIDE_BENCH_MAPS); else empty.
const std::vector<MeshScene>& MapScenes();

// Rays, sight lines and capsules for a mesh (seeded).
void AddQueries(MeshScene& scene, unsigned seed);

}  // namespace collide::bench

#endif  // COLLIDE_BENCH_MESH_SCENES_H_
