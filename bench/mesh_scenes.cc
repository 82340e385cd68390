#include "mesh_scenes.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "support/synthetic_meshes.h"

#ifdef COLLIDE_BENCH_MAPS
#include "collide/import/map_import.h"
#endif

namespace collide::bench {
namespace {

double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

Vec3 UnitVector(std::mt19937_64& rng) {
  for (;;) {
    const Vec3 v{Uniform(rng, -1, 1), Uniform(rng, -1, 1), Uniform(rng, -1, 1)};
    const double l2 = LengthSquared(v);
    if (l2 > 1e-6 && l2 <= 1) return v / std::sqrt(l2);
  }
}

}  // namespace

void AddQueries(MeshScene& scene, unsigned seed) {
  std::mt19937_64 rng(seed);
  const MeshData& m = scene.data;
  // Floors: triangles facing up (either winding: surfaces are two-sided).
  std::vector<std::size_t> floors;
  for (std::size_t i = 0; i < m.triangles.size(); ++i) {
    const auto& t = m.triangles[i];
    const Vec3 n = Cross(m.vertices[t[1]] - m.vertices[t[0]], m.vertices[t[2]] - m.vertices[t[0]]);
    const double l = Length(n);
    if (l > 0 && std::fabs(n.z) > 0.7 * l) floors.push_back(i);
  }
  if (floors.empty()) {
    std::fprintf(stderr, "mesh_bench: %s has no floor\n", scene.name.c_str());
    std::abort();
  }
  auto floor_point = [&] {
    const auto& t = m.triangles[floors[rng() % floors.size()]];
    double u = Uniform(rng, 0, 1), v = Uniform(rng, 0, 1);
    if (u + v > 1) u = 1 - u, v = 1 - v;
    const Vec3 a = m.vertices[t[0]];
    return a + (m.vertices[t[1]] - a) * u + (m.vertices[t[2]] - a) * v;
  };
  const Vec3 up{0, 0, 1};
  for (int i = 0; i < kQueriesPerScene; ++i) {
    scene.rays.push_back({floor_point() + up * kEyeHeight, UnitVector(rng), kInfinity});
    const Vec3 a = floor_point() + up * kEyeHeight, b = floor_point() + up * kEyeHeight;
    const double d = Length(b - a);
    scene.sight.push_back({a, d > 0 ? (b - a) / d : up, d});
    const Vec3 f = floor_point() + up * (kPlayerRadius - 1.0);
    scene.capsules.push_back({f, f + up * (kPlayerHeight - 2 * kPlayerRadius), kPlayerRadius});
  }
}

const std::vector<MeshScene>& SyntheticScenes() {
  static const std::vector<MeshScene>* scenes = [] {
    auto* s = new std::vector<MeshScene>;
    s->push_back({"terrain", testing::MakeTerrain(256, 8192.0, 1), {}, {}, {}});
    s->push_back({"boxes", testing::MakeBoxes(5000, 8192.0, 2), {}, {}, {}});
    s->push_back({"terrain_1m", testing::MakeTerrain(708, 16384.0, 3), {}, {}, {}});
    unsigned seed = 10;
    for (MeshScene& scene : *s) AddQueries(scene, seed++);
    return s;
  }();
  return *scenes;
}

const std::vector<MeshScene>& MapScenes() {
  static const std::vector<MeshScene>* scenes = [] {
    auto* s = new std::vector<MeshScene>;
#ifdef COLLIDE_BENCH_MAPS
    const char* pk3 = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";
    unsigned seed = 20;
    for (const char* map : {"aggressor", "oa_ctf2", "am_underworks2"}) {
      importer::ImportOptions options;
      options.map = map;
      auto imported = importer::ImportMap(pk3, options);
      if (!imported.ok()) {
        std::fprintf(stderr, "mesh_bench: %s\n", std::string(imported.status().message()).c_str());
        std::abort();
      }
      s->push_back({map, std::move(imported->mesh), {}, {}, {}});
      AddQueries(s->back(), seed++);
    }
#endif
    return s;
  }();
  return *scenes;
}

}  // namespace collide::bench
