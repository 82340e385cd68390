// The movement model's cost on real movement (issue 31's speed target): the
// move corpus of docs/move-corpus.md (Quake-style bots on aggressor, every
// tick's moves judged by World::ValidateMoves under the Quake preset, the
// player box as movement shape), per move, at 16 and 48 ms ticks; beside
// it the least the same verdicts cost on Bullet: per move, the box's
// convexSweepTest along the move and a ground probe under its end (the model
// does these two and more: steps, slides, the start's ground, the arc).
//
//   move_model_bench [--benchmark_filter=...]
//
// Only ValidateMoves is timed (manual time); pushing the frames is not.
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "bullet_mesh.h"
#include "support/move_corpus.h"

namespace collide {
namespace {

using testing::BotTrack;
using testing::MapCorpus;

// 8 bots x 20 s on aggressor: 10,000 commands (2,200 airborne, 30 step-ups).
const MapCorpus& Corpus() {
  static const MapCorpus* corpus = [] {
    testing::BotRunOptions bots;
    bots.bots = 8;
    bots.seconds = 20;
    std::string error;
    auto* c = new MapCorpus(testing::MakeMapCorpus("aggressor", bots, error));
    if (!c->mesh) {
      std::fprintf(stderr, "move corpus: %s\n", error.c_str());
      std::exit(1);
    }
    return c;
  }();
  return *corpus;
}

// The frames and the moves into each, as JudgeCorpus makes them.
struct Ticks {
  std::vector<Frame> frames;
  std::vector<std::vector<MoveRequest>> moves;  // moves[k]: into frames[k]
  std::size_t count = 0;
};

Ticks MakeTicks(const MapCorpus& c, std::size_t commands_per_tick) {
  Ticks out;
  std::size_t ticks = testing::TickCount(c.tracks[0], commands_per_tick);
  for (const BotTrack& t : c.tracks) ticks = std::min(ticks, testing::TickCount(t, commands_per_tick));
  const double seconds = static_cast<double>(commands_per_tick) * testing::kCommandSeconds;
  for (std::size_t tick = 0; tick < ticks; ++tick) {
    Frame f{static_cast<std::int64_t>(tick), {}, {}};
    std::vector<MoveRequest> moves;
    for (std::size_t b = 0; b < c.tracks.size(); ++b) {
      const testing::QuakePlayer& now = testing::StateAtTick(c.tracks[b], commands_per_tick, tick);
      BodyUpdate u;
      u.id = static_cast<std::int64_t>(b) + 1;
      u.pose = Pose{now.origin, Quat{1, 0, 0, 0}};
      const Shape standing = testing::MovementShape(c.params, testing::MoveShapeKind::kBox, false);
      if (tick == 0) u.parts = {BodyPart{0, standing, Pose{{}, Quat{1, 0, 0, 0}}}};
      u.movement_shape = testing::MovementShape(c.params, testing::MoveShapeKind::kBox, now.crouched);
      const bool respawned = tick > 0 && testing::RespawnedBefore(c.tracks[b], commands_per_tick, tick);
      u.teleport = respawned;
      f.bodies.push_back(std::move(u));
      if (tick == 0 || respawned) continue;
      MoveRequest m;
      m.body = static_cast<std::int64_t>(b) + 1;
      m.to = now.origin;
      m.elapsed = seconds;
      m.stance = now.crouched ? 1 : 0;
      moves.push_back(m);
    }
    out.count += moves.size();
    out.frames.push_back(std::move(f));
    out.moves.push_back(std::move(moves));
  }
  return out;
}

WorldSettings ModelSettings(const MapCorpus& c) {
  WorldSettings settings;
  settings.history_ticks = 4;
  settings.max_rewind_ticks = 2;
  settings.skin_width = testing::kTraceGap;
  settings.movement = MovementModel::Quake();
  for (std::size_t s = 0; s < settings.movement->stances.size(); ++s) {
    settings.movement->stances[s].shape =
        testing::MovementShape(c.params, testing::MoveShapeKind::kBox, s == 1);
  }
  return settings;
}

void BM_MoveModelCorpus(benchmark::State& state) {
  const MapCorpus& c = Corpus();
  const Ticks ticks = MakeTicks(c, static_cast<std::size_t>(state.range(0)));
  std::size_t rejected = 0;
  for (auto _ : state) {
    World world(ModelSettings(c), {{1, kAllCategories, c.mesh}});
    double seconds = 0;
    rejected = 0;
    for (std::size_t k = 0; k < ticks.frames.size(); ++k) {
      if (!world.PushFrame(ticks.frames[k]).ok()) throw std::runtime_error("frame rejected");
      const auto start = std::chrono::steady_clock::now();
      const std::vector<MoveVerdict> verdicts = world.ValidateMoves(ticks.moves[k]);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (const MoveVerdict& v : verdicts) rejected += v.code != MoveCode::kOk;
    }
    state.SetIterationTime(seconds);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ticks.count));
  state.counters["moves"] = static_cast<double>(ticks.count);
  state.counters["rejected"] = static_cast<double>(rejected);
}
BENCHMARK(BM_MoveModelCorpus)->Arg(1)->Arg(3)->UseManualTime()->Unit(benchmark::kMillisecond);

btVector3 Bt(const Vec3& v) { return {v.x, v.y, v.z}; }

void BM_MoveBulletCorpus(benchmark::State& state) {
  const MapCorpus& c = Corpus();
  const std::size_t cpt = static_cast<std::size_t>(state.range(0));
  const Ticks ticks = MakeTicks(c, cpt);
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btCollisionWorld world(&dispatcher, &broadphase, &config);
  bench::BulletTriangleMesh mesh(c.mesh->vertices(), c.mesh->triangles());
  btCollisionObject map;
  map.setCollisionShape(mesh.shape());
  world.addCollisionObject(&map);
  const Aabb standing = testing::PlayerBox(c.params, {}, false),
             crouched = testing::PlayerBox(c.params, {}, true);
  btBoxShape stand_box(Bt((standing.max - standing.min) * 0.5)),
      crouch_box(Bt((crouched.max - crouched.min) * 0.5));
  const btQuaternion identity = btQuaternion::getIdentity();
  std::size_t hits = 0;
  for (auto _ : state) {
    hits = 0;
    for (std::size_t k = 1; k < ticks.frames.size(); ++k) {
      for (const MoveRequest& m : ticks.moves[k]) {
        const Vec3 from = testing::StateAtTick(c.tracks[m.body - 1], cpt, k - 1).origin;
        const Aabb& box = m.stance == 1 ? crouched : standing;
        btBoxShape& shape = m.stance == 1 ? crouch_box : stand_box;
        const Vec3 centre = (box.min + box.max) * 0.5;
        const btVector3 a = Bt(from + centre), b = Bt(m.to + centre), below = b - btVector3(0, 0, 0.25);
        btCollisionWorld::ClosestConvexResultCallback path(a, b), ground(b, below);
        world.convexSweepTest(&shape, btTransform(identity, a), btTransform(identity, b), path);
        world.convexSweepTest(&shape, btTransform(identity, b), btTransform(identity, below), ground);
        hits += path.hasHit() + ground.hasHit();
      }
    }
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * ticks.count));
  world.removeCollisionObject(&map);
}
BENCHMARK(BM_MoveBulletCorpus)->Arg(1)->Arg(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace collide

BENCHMARK_MAIN();
