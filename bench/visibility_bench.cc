// Visibility sets of a 64-player match at one tick on one core: 64 players
// standing at random open places of an OpenArena map, every observer against
// every other player (64 x 63 pairs), with a 100 ms look-ahead at 20 ticks/s
// and an 8-unit margin; the same players walking circles at 64 ticks/s, the
// sets asked after every frame with reuse_ticks 0, 4 and 8; and the world's
// creation with the occluder grid (voxelization, summed-area tables,
// distance field) per map. Run: build/bench/visibility_bench.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "collide/import/map_import.h"
#include "collide/world.h"
#include "support/open_floor.h"

namespace collide::bench {
namespace {

constexpr const char* kPak = "/usr/share/games/openarena/baseoa/pak6-patch088.pk3";
constexpr const char* kMaps[] = {"aggressor", "oa_ctf2", "czest1dm"};

std::shared_ptr<const TriangleMesh> Import(const std::string& map, importer::CategoryMask categories) {
  importer::ImportOptions options;
  options.map = map;
  options.categories = categories;
  auto imported = importer::ImportMap(kPak, options);
  if (!imported.ok()) return nullptr;
  return std::make_shared<const TriangleMesh>(std::move(imported->mesh));
}

WorldSettings Settings() {
  WorldSettings s;
  s.visibility.occluder_mask = 1;
  return s;
}

void BM_CreateWorldWithOccluders(benchmark::State& state) {
  const auto occluders = Import(kMaps[state.range(0)], importer::MaskOf(importer::Category::kOccluder));
  if (occluders == nullptr) return state.SkipWithError("no OpenArena map");
  for (auto _ : state) {
    World world(Settings(), {{1, 1, occluders}});
    benchmark::DoNotOptimize(world.visibility_info().solid_voxels);
    state.counters["grid_MB"] = static_cast<double>(world.visibility_info().memory_bytes) / 1e6;
  }
  state.SetLabel(kMaps[state.range(0)]);
}
BENCHMARK(BM_CreateWorldWithOccluders)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

// A map's occluders and 64 open places on its floor (the Quake player's box
// free of its drawn and solid geometry, as the map test picks them).
struct MapPlayers {
  std::shared_ptr<const TriangleMesh> occluders;
  std::vector<Vec3> feet;
};
std::optional<MapPlayers> LoadPlayers(const std::string& map) {
  const auto occluders = Import(map, importer::MaskOf(importer::Category::kOccluder));
  const auto reference = Import(
      map, importer::MaskOf(importer::Category::kRender) | importer::MaskOf(importer::Category::kSolid));
  if (occluders == nullptr || reference == nullptr) return std::nullopt;
  std::mt19937_64 rng(64);
  return MapPlayers{occluders, testing::OpenFloorPoints(*reference, occluders.get(), rng, 64)};
}

// The 64 players at feet[b] + offset(b) (ids b + 1); their box and eye on
// the first tick.
template <typename Offset>
Frame PlayersFrame(std::int64_t tick, const std::vector<Vec3>& feet, Offset offset) {
  Frame frame{tick, {}, {}};
  for (int b = 0; b < 64; ++b) {
    BodyUpdate u;
    u.id = b + 1;
    u.pose = Pose{feet[b] + offset(b), Quat{1, 0, 0, 0}};
    if (tick == 1) {
      const double w = testing::kPlayerHalfWidth;
      u.parts = {BodyPart{0, Aabb{{-w, -w, 0}, {w, w, testing::kPlayerHeight}}, Pose{}}};
      u.eye = Vec3{0, 0, testing::kPlayerEyeHeight};
    }
    frame.bodies.push_back(std::move(u));
  }
  return frame;
}

void BM_VisibleSets64Players(benchmark::State& state) {
  const std::string map = kMaps[state.range(0)];
  const std::optional<MapPlayers> players = LoadPlayers(map);
  if (!players) return state.SkipWithError("no OpenArena map");
  World world(Settings(), {{1, 1, players->occluders}});
  for (int tick = 1; tick <= 2; ++tick) {
    // Running at up to 320 units/s along x (16 units a tick).
    const Frame frame = PlayersFrame(tick, players->feet, [&](int b) {
      return Vec3{tick * (b % 33 - 16.0), 0, 0};
    });
    if (!world.PushFrame(frame).ok()) return state.SkipWithError("frame rejected");
  }
  VisibilityRequest request;
  request.tick_seconds = 0.05;
  request.latency = 0.1;
  request.margin = 8;
  std::int64_t hidden = 0;
  for (auto _ : state) {
    const VisibilityResult r = world.VisibleSets(request);
    hidden = r.hidden;
    benchmark::DoNotOptimize(r.sets.data());
  }
  state.counters["hidden_share"] = static_cast<double>(hidden) / (64 * 63);
  state.SetLabel(map);
}
BENCHMARK(BM_VisibleSets64Players)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_VisibleSetsMoving(benchmark::State& state) {
  const std::string map = kMaps[state.range(0)];
  const std::optional<MapPlayers> players = LoadPlayers(map);
  if (!players) return state.SkipWithError("no OpenArena map");
  WorldSettings settings = Settings();
  settings.visibility.reuse_ticks = static_cast<std::int32_t>(state.range(1));
  World world(settings, {{1, 1, players->occluders}});
  std::int64_t tick = 0;
  const auto push = [&] {
    ++tick;
    // 250 units/s around a 24-unit circle.
    const Frame frame = PlayersFrame(tick, players->feet, [&](int b) {
      const double angle = 0.16 * static_cast<double>(tick) + b;
      return Vec3{24 * std::cos(angle), 24 * std::sin(angle), 0};
    });
    return world.PushFrame(frame).ok();
  };
  if (!push()) return state.SkipWithError("frame rejected");
  VisibilityRequest request;
  request.tick_seconds = 1.0 / 64;
  request.latency = 0.1;
  request.margin = 8;
  std::int64_t hidden = 0;
  for (auto _ : state) {
    state.PauseTiming();
    if (!push()) return state.SkipWithError("frame rejected");
    state.ResumeTiming();
    const VisibilityResult r = world.VisibleSets(request);
    hidden += r.hidden;
    benchmark::DoNotOptimize(r.sets.data());
  }
  state.counters["hidden_share"] =
      static_cast<double>(hidden) / (64 * 63) / static_cast<double>(state.iterations());
  state.SetLabel(map);
}
BENCHMARK(BM_VisibleSetsMoving)
    ->ArgsProduct({{0, 1, 2}, {0, 4, 8}})
    ->ArgNames({"map", "reuse_ticks"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace collide::bench

BENCHMARK_MAIN();
