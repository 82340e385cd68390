// Explanations on corpus-style moves: the move corpus's Quake-style bots
// (tests/support/move_bots) run on a synthetic level of stairs, a ramp, a
// pillar and walls, and their moves, at 16 ms and 48 ms ticks, with a speed
// hack on every seventh, are judged under the Quake model by two worlds fed
// the same frames: one explaining, one not. Every verdict is the same, and
// each explanation holds the move as the judge took it (from resolved to the
// body's previous position, contacts on their sweeps, a reason).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "collide/world.h"
#include "support/move_bots.h"
#include "support/move_corpus.h"
#include "support/quake_movement.h"

namespace collide::testing {
namespace {

void AddBox(MeshData& mesh, const Aabb& b) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int k = 0; k < 8; ++k) {
    mesh.vertices.push_back(
        {k & 1 ? b.max.x : b.min.x, k & 2 ? b.max.y : b.min.y, k & 4 ? b.max.z : b.min.z});
  }
  constexpr std::uint32_t kFaces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                          {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : kFaces) {
    mesh.triangles.push_back({base + f[0], base + f[1], base + f[2]});
    mesh.triangles.push_back({base + f[0], base + f[2], base + f[3]});
  }
}

// A walled 1200-unit square: 16-unit stairs up to a 96-unit platform, a
// 120-unit pillar, a 24-unit ledge (too high to step) and a 25-degree ramp.
std::shared_ptr<const TriangleMesh> Level() {
  MeshData m;
  AddBox(m, {{-600, -600, -64}, {600, 600, 0}});
  for (const double x : {-600.0, 584.0}) AddBox(m, {{x, -600, 0}, {x + 16, 600, 256}});
  for (const double y : {-600.0, 584.0}) AddBox(m, {{-600, y, 0}, {600, y + 16, 256}});
  for (int i = 0; i < 6; ++i) AddBox(m, {{100.0 + 32 * i, -150, 0}, {400, 150, 16.0 * (i + 1)}});
  AddBox(m, {{-300, -300, 0}, {-220, -220, 120}});
  AddBox(m, {{-400, 250, 0}, {-250, 400, 24}});
  const auto base = static_cast<std::uint32_t>(m.vertices.size());
  const double rise = 200 * std::tan(25 * M_PI / 180);
  m.vertices.insert(m.vertices.end(), {{0, 300, 0}, {200, 300, rise}, {200, 500, rise}, {0, 500, 0}});
  m.triangles.push_back({base, base + 1, base + 2});
  m.triangles.push_back({base, base + 2, base + 3});
  return std::make_shared<const TriangleMesh>(std::move(m));
}

World ModelWorld(const std::shared_ptr<const TriangleMesh>& mesh, const QuakeMovementParams& params) {
  WorldSettings settings;
  settings.history_ticks = 4;
  settings.skin_width = kTraceGap;
  settings.movement = MovementModel::Quake();
  for (std::size_t s = 0; s < settings.movement->stances.size(); ++s) {
    settings.movement->stances[s].shape = MovementShape(params, MoveShapeKind::kBox, s == 1);
  }
  return World(settings, {{1, kAllCategories, mesh}});
}

void ExpectSame(const MoveVerdict& a, const MoveVerdict& b) {
  EXPECT_EQ(a.code, b.code) << MoveCodeName(a.code) << " vs " << MoveCodeName(b.code);
  EXPECT_EQ(a.speed, b.speed);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.normal, b.normal);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.allowed_position, b.allowed_position);
  EXPECT_EQ(a.slid_position, b.slid_position);
  EXPECT_EQ(a.grounded, b.grounded);
}

void JudgeTwice(const std::vector<BotTrack>& tracks, const QuakeMovementParams& params,
                const std::shared_ptr<const TriangleMesh>& mesh, std::size_t commands_per_tick,
                std::map<MoveCode, int>& codes, int& contacts) {
  World plain = ModelWorld(mesh, params), explained = ModelWorld(mesh, params);
  std::size_t ticks = TickCount(tracks[0], commands_per_tick);
  for (const BotTrack& t : tracks) ticks = std::min(ticks, TickCount(t, commands_per_tick));
  int hacked = 0;
  for (std::size_t tick = 0; tick < ticks; ++tick) {
    Frame f{static_cast<std::int64_t>(tick), {}, {}};
    std::vector<MoveRequest> moves;
    std::vector<Vec3> before;
    for (std::size_t b = 0; b < tracks.size(); ++b) {
      const QuakePlayer& now = StateAtTick(tracks[b], commands_per_tick, tick);
      BodyUpdate u;
      u.id = static_cast<std::int64_t>(b) + 1;
      u.pose = Pose{now.origin, {}};
      if (tick == 0) u.parts = {BodyPart{0, MovementShape(params, MoveShapeKind::kBox, false), {}}};
      const bool respawned = tick > 0 && RespawnedBefore(tracks[b], commands_per_tick, tick);
      u.teleport = respawned;
      f.bodies.push_back(std::move(u));
      if (tick == 0 || respawned) continue;
      MoveRequest m;
      m.body = static_cast<std::int64_t>(b) + 1;
      const Vec3 from = StateAtTick(tracks[b], commands_per_tick, tick - 1).origin;
      m.to = now.origin;
      if (++hacked % 7 == 0) {  // a speed hack: three times as far, from where the body was.
        m.from = from;
        m.to = from + (now.origin - from) * 3.0;
      }
      m.elapsed = static_cast<double>(commands_per_tick) * kCommandSeconds;
      m.stance = now.crouched ? 1 : 0;
      moves.push_back(m);
      before.push_back(from);
    }
    ASSERT_TRUE(plain.PushFrame(f).ok());
    ASSERT_TRUE(explained.PushFrame(f).ok());
    const std::vector<MoveVerdict> a = plain.ValidateMoves(moves);
    for (MoveRequest& m : moves) m.explain = true;
    const std::vector<MoveVerdict> b = explained.ValidateMoves(moves);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      SCOPED_TRACE(::testing::Message() << "tick " << tick << " move " << i);
      ExpectSame(a[i], b[i]);
      ASSERT_NE(b[i].explanation, nullptr);
      const MoveExplanation& e = *b[i].explanation;
      EXPECT_EQ(e.from, before[i]);
      EXPECT_EQ(e.to, moves[i].to);
      EXPECT_FALSE(e.reason.empty());
      EXPECT_GT(e.horizontal_limit, 0.0);
      EXPECT_LE(e.lowest_z, e.highest_z);
      for (const MoveContact& c : e.contacts) {
        const MoveSweep& s = e.sweeps.at(static_cast<std::size_t>(c.sweep));
        EXPECT_NEAR(Length(s.from + (s.to - s.from) * c.t - c.position), 0.0, 1e-9);
      }
      contacts += static_cast<int>(e.contacts.size());
      ++codes[b[i].code];
    }
  }
}

TEST(ExplainCorpus, ModelVerdictsAreTheSameWithAnExplanation) {
  const std::shared_ptr<const TriangleMesh> mesh = Level();
  const QuakeMovementParams params;
  const std::vector<Vec3> spawns = {
      {0, 0, 24}, {-400, -400, 24}, {400, 400, 24}, {-100, 200, 24}, {300, -400, 24}};
  const std::vector<BotTrack> tracks =
      RunBots(*mesh, spawns, {}, params, {.bots = 5, .seconds = 8, .seed = 3});
  ASSERT_EQ(tracks.size(), 5u);
  std::map<MoveCode, int> codes;
  int contacts = 0;
  for (const std::size_t cpt : {std::size_t{1}, std::size_t{3}})
    JudgeTwice(tracks, params, mesh, cpt, codes, contacts);
  // The honest moves are mostly OK; the hacks are caught; sweeps met the level.
  EXPECT_GT(codes[MoveCode::kOk], 1500);
  EXPECT_GT(codes[MoveCode::kTooFastHorizontal], 50);
  EXPECT_GT(contacts, 1000);
}

}  // namespace
}  // namespace collide::testing
