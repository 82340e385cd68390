// Explanations and World::Bodies: asking for an explanation never changes a
// verdict (seeded random shots, straight moves with slides and Quake-model
// moves on a level of boxes, stairs and a ramp), and an explanation holds
// what the judge used (the rewound hitboxes are Bodies'/BodyPartsAt's, the
// explained ray reproduces the first hit, the contacts lie on their sweeps).
// Bodies() is checked against interpolating the pushed frames by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "collide/world.h"

namespace collide {
namespace {

constexpr int kBodies = 6;
constexpr int kFrames = 12;

Quat AxisAngle(const Vec3& axis, double angle) {
  const Vec3 a = axis * (1.0 / Length(axis));
  const double s = std::sin(angle / 2);
  return {std::cos(angle / 2), a.x * s, a.y * s, a.z * s};
}

// Seeded frames of kBodies players (a capsule torso and a sphere head whose
// local pose nods) running and turning between walls; body 3 teleports in
// frame 7, body 5 is removed in frame 9.
std::vector<Frame> MatchFrames(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Frame> frames;
  std::vector<Vec3> position(kBodies);
  for (int b = 0; b < kBodies; ++b) position[b] = {u(rng) * 8, u(rng) * 8, 1.0};
  for (int f = 0; f < kFrames; ++f) {
    Frame frame{10 + f + (f >= 6 ? 1 : 0), {}, {}};  // no frame at tick 16.
    for (int b = 0; b < kBodies; ++b) {
      if (b == 5 && f >= 9) continue;
      position[b] += Vec3{u(rng) * 0.3, u(rng) * 0.3, 0.0};
      BodyUpdate up;
      up.id = 100 + b;
      up.pose = Pose{position[b], AxisAngle({0, 0, 1}, 0.2 * f + b)};
      if (b == 3 && f == 7) {
        position[b] += Vec3{6, 0, 0};
        up.pose->position = position[b];
        up.teleport = true;
      }
      if (f == 0) {
        up.parts = {{1, Capsule{{0, 0, -0.5}, {0, 0, 0.5}, 0.3}, {}},
                    {2, Sphere{{0, 0, 0}, 0.2}, Pose{{0, 0, 0.9}, {}}}};
        up.eye = Vec3{0, 0, 0.8};
        up.category = b % 2 == 0 ? 1u : 2u;
      }
      up.part_poses = {{2, Pose{{0.05 * std::sin(f), 0, 0.9}, AxisAngle({1, 0, 0}, 0.1 * f)}}};
      frame.bodies.push_back(std::move(up));
    }
    if (f == 9) frame.removals.push_back(105);
    frames.push_back(std::move(frame));
  }
  return frames;
}

World MatchWorld(const std::vector<Frame>& frames) {
  WorldSettings settings;
  settings.history_ticks = 64;
  settings.max_rewind_ticks = 32;
  settings.max_origin_offset = 1.0;
  std::vector<StaticElement> statics = {{1, kAllCategories, Aabb{{-20, -20, -1}, {20, 20, 0}}},
                                        {2, kAllCategories, Aabb{{-1, -20, 0}, {-0.8, 0, 3}}}};
  World w(settings, std::move(statics));
  for (const Frame& f : frames) EXPECT_TRUE(w.PushFrame(f).ok());
  return w;
}

void ExpectSameShot(const ShotVerdict& a, const ShotVerdict& b) {
  EXPECT_EQ(a.code, b.code);
  EXPECT_EQ(a.problems.size(), b.problems.size());
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.first_hit, b.first_hit);
  EXPECT_EQ(a.claim_miss_distance, b.claim_miss_distance);
  EXPECT_EQ(a.origin_offset, b.origin_offset);
  EXPECT_EQ(a.origin_allowance, b.origin_allowance);
  EXPECT_EQ(a.rewound_across_teleport, b.rewound_across_teleport);
}

// Seeded shots from each shooter's eye at a random past time towards a
// random part of another body (noisy: some miss, some hit a wall or another
// body), a claim on most, some tolerance on some.
std::vector<ShotRequest> RandomShots(const World& w, std::uint32_t seed, int count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<ShotRequest> shots;
  const std::int64_t latest = *w.latest_tick();
  for (int i = 0; i < count; ++i) {
    ShotRequest s;
    s.shooter = 100 + static_cast<int>(u(rng) * kBodies);
    const std::int64_t target = 100 + static_cast<int>(u(rng) * kBodies);
    s.at = Time{latest - static_cast<std::int64_t>(u(rng) * 14), u(rng) * 0.99};
    const std::vector<std::pair<std::int32_t, Shape>> parts = w.BodyPartsAt(target, s.at);
    const BodiesResult shooter = w.Bodies(std::nullopt, std::span(&s.shooter, 1));
    if (shooter.bodies.empty()) continue;
    s.origin = shooter.bodies[0].eye + Vec3{u(rng) - 0.5, u(rng) - 0.5, 0} * (u(rng) < 0.1 ? 5.0 : 0.2);
    const Vec3 aim = parts.empty() ? Vec3{0, 0, 1}
                                   : std::get<Sphere>(parts.back().second).center +
                                         Vec3{u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5} * 1.2;
    s.direction = aim - s.origin;
    if (LengthSquared(s.direction) == 0.0) s.direction = {1, 0, 0};
    if (target != s.shooter && u(rng) < 0.8) s.claim = ShotClaim{target, u(rng) < 0.7 ? 2 : 1};
    s.tolerance = u(rng) < 0.3 ? 0.05 : 0.0;
    if (u(rng) < 0.3) s.max_range = 5.0 + u(rng) * 10.0;
    if (u(rng) < 0.2) s.mask = 1;
    shots.push_back(s);
  }
  return shots;
}

TEST(WorldExplain, ShotVerdictsAreTheSameWithAnExplanationAndItHoldsWhatTheJudgeUsed) {
  const World w = MatchWorld(MatchFrames(7));
  std::vector<ShotRequest> shots = RandomShots(w, 11, 600);
  const std::vector<ShotVerdict> plain = w.ValidateShots(shots);
  for (ShotRequest& s : shots) s.explain = true;
  const std::vector<ShotVerdict> explained = w.ValidateShots(shots);
  ASSERT_EQ(plain.size(), explained.size());
  std::map<ShotCode, int> codes;
  int rays_checked = 0;
  for (std::size_t i = 0; i < shots.size(); ++i) {
    SCOPED_TRACE(i);
    const ShotRequest& s = shots[i];
    const ShotVerdict& v = explained[i];
    ExpectSameShot(plain[i], v);
    EXPECT_EQ(plain[i].explanation, nullptr);
    ++codes[v.code];
    if (v.code == ShotCode::kInvalid) {
      EXPECT_EQ(v.explanation, nullptr);
      continue;
    }
    ASSERT_NE(v.explanation, nullptr);
    const ShotExplanation& e = *v.explanation;
    EXPECT_EQ(e.command_at, w.Resolve(std::nullopt).used);
    if (e.shooter && v.origin_allowance > 0.0) {  // the origin was checked.
      EXPECT_NEAR(Length(s.origin - e.shooter->eye), v.origin_offset, 1e-12);
    }
    if (s.claim) {
      const auto rewound = w.BodyPartsAt(s.claim->body, v.time.used);
      ASSERT_EQ(e.claimed_rewound.has_value(), !rewound.empty());
      if (e.claimed_rewound) {
        ASSERT_EQ(e.claimed_rewound->parts.size(), rewound.size());
        for (std::size_t k = 0; k < rewound.size(); ++k) {
          EXPECT_EQ(e.claimed_rewound->parts[k].id, rewound[k].first);
          EXPECT_EQ(e.claimed_rewound->parts[k].shape, rewound[k].second);
        }
        if (v.code != ShotCode::kConfirmed && v.claim_miss_distance >= 0.0) {
          EXPECT_LE(e.nearest_claimed_distance, v.claim_miss_distance);
        }
      }
      const auto latest = w.BodyPartsAt(s.claim->body, std::nullopt);
      ASSERT_EQ(e.claimed_latest.has_value(), !latest.empty());
    }
    // The explained ray, cast at the time used through the shot's filter
    // (grown parts aside: tolerance 0), meets what the verdict's first hit is.
    if (e.ray && s.tolerance == 0.0) {
      EXPECT_NEAR(Length(e.ray->direction), 1.0, 1e-12);
      RayQuery q;
      q.ray = *e.ray;
      q.at = v.time.used;
      q.filter.mask = s.mask;
      q.filter.ignored_bodies = {s.shooter};
      const RayQueryResult r = w.RayCasts(std::span(&q, 1)).front();
      ASSERT_TRUE(r.valid);
      ASSERT_EQ(r.hits.empty(), !v.first_hit.has_value());
      if (v.first_hit) {
        EXPECT_EQ(r.hits[0].target, v.first_hit->target);
        EXPECT_NEAR(r.hits[0].distance, v.first_hit->distance, 1e-9);
      }
      ++rays_checked;
    }
  }
  // Not an all-miss set.
  EXPECT_GT(codes[ShotCode::kConfirmed], 30);
  EXPECT_GT(codes[ShotCode::kMissed], 30);
  EXPECT_GT(codes[ShotCode::kOriginImplausible] + codes[ShotCode::kUnknownTarget], 5);
  EXPECT_GT(rays_checked, 200);
}

// World::Bodies against the frames interpolated by hand (world.h's rule).
TEST(WorldExplain, BodiesAreTheFramesInterpolated) {
  const std::vector<Frame> frames = MatchFrames(3);
  const World w = MatchWorld(frames);
  // Each body's pose and part-2 local pose per frame, by replaying the frames.
  struct Kept {
    Pose pose;
    Pose head;
    bool teleport = false;
  };
  std::vector<std::map<std::int64_t, Kept>> kept;
  for (const Frame& f : frames) {
    std::map<std::int64_t, Kept> now = kept.empty() ? std::map<std::int64_t, Kept>{} : kept.back();
    for (const std::int64_t id : f.removals) now.erase(id);
    for (const BodyUpdate& b : f.bodies) now[b.id] = {*b.pose, b.part_poses[0].local, b.teleport};
    for (auto& entry : now) {
      const std::int64_t id = entry.first;  // a lambda cannot capture a structured binding (clang 15)
      if (std::none_of(f.bodies.begin(), f.bodies.end(), [&](const BodyUpdate& b) { return b.id == id; }))
        entry.second.teleport = false;
    }
    kept.push_back(std::move(now));
  }
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int checked = 0;
  for (int i = 0; i < 200; ++i) {
    const Time at{frames.front().tick + static_cast<std::int64_t>(u(rng) * 14), i % 4 == 0 ? 0.0 : u(rng)};
    const double t = static_cast<double>(at.tick) + at.fraction;
    std::size_t f0 = 0;
    while (f0 + 1 < frames.size() && static_cast<double>(frames[f0 + 1].tick) <= t) ++f0;
    const bool last = f0 + 1 == frames.size();
    const double alpha =
        last ? 0.0 : (t - static_cast<double>(frames[f0].tick)) / (frames[f0 + 1].tick - frames[f0].tick);
    const BodiesResult r = w.Bodies(at, {});
    ASSERT_TRUE(r.valid);
    ASSERT_EQ(r.bodies.size(), kept[f0].size());
    std::size_t k = 0;
    for (const auto& [id, k0] : kept[f0]) {
      const PosedBody& b = r.bodies[k++];
      ASSERT_EQ(b.id, id);
      Pose pose = k0.pose, head = k0.head;
      if (!last && kept[f0 + 1].count(id) && !kept[f0 + 1].at(id).teleport) {
        pose = Interpolate(k0.pose, kept[f0 + 1].at(id).pose, alpha);
        head = Interpolate(k0.head, kept[f0 + 1].at(id).head, alpha);
      }
      EXPECT_NEAR(Length(b.pose.position - pose.position), 0.0, 1e-12);
      EXPECT_NEAR(Length(b.eye - Apply(pose, {0, 0, 0.8})), 0.0, 1e-12);
      ASSERT_EQ(b.parts.size(), 2u);
      const Capsule torso = std::get<Capsule>(b.parts[0].shape);
      EXPECT_NEAR(Length(torso.a - Apply(pose, {0, 0, -0.5})), 0.0, 1e-12);
      EXPECT_NEAR(Length(torso.b - Apply(pose, {0, 0, 0.5})), 0.0, 1e-12);
      const Sphere skull = std::get<Sphere>(b.parts[1].shape);
      EXPECT_NEAR(Length(skull.center - Apply(Compose(pose, head), {0, 0, 0})), 0.0, 1e-12);
      EXPECT_EQ(b.category, (id - 100) % 2 == 0 ? 1u : 2u);
      ++checked;
    }
  }
  EXPECT_GT(checked, 800);
}

TEST(WorldExplain, BodiesListsMissingIdsAndRejectsABadTime) {
  const World w = MatchWorld(MatchFrames(3));
  const std::vector<std::int64_t> ids = {105, 999, 101, 101, -4};
  const BodiesResult now = w.Bodies(std::nullopt, ids);
  ASSERT_TRUE(now.valid);
  ASSERT_EQ(now.bodies.size(), 1u);  // 105 was removed; 101 once.
  EXPECT_EQ(now.bodies[0].id, 101);
  EXPECT_EQ(now.missing, (std::vector<std::int64_t>{-4, 105, 999}));
  const BodiesResult before = w.Bodies(Time{12, 0.5}, ids);
  ASSERT_EQ(before.bodies.size(), 2u);
  EXPECT_EQ(before.bodies[1].id, 105);
  EXPECT_EQ(before.time.used, (Time{12, 0.5}));
  const BodiesResult bad = w.Bodies(Time{12, 1.5}, ids);
  EXPECT_FALSE(bad.valid);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].field, "at.fraction");
}

void ExpectSameMove(const MoveVerdict& a, const MoveVerdict& b) {
  EXPECT_EQ(a.code, b.code) << MoveCodeName(a.code) << " " << MoveCodeName(b.code);
  EXPECT_EQ(a.problems.size(), b.problems.size());
  EXPECT_EQ(a.speed, b.speed);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.normal, b.normal);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.allowed_position, b.allowed_position);
  EXPECT_EQ(a.slid_position, b.slid_position);
  EXPECT_EQ(a.grounded, b.grounded);
}

// What every explanation of a valid move holds: contacts on their sweeps,
// a reason, and for a blocked straight move its contact as the verdict's.
void ExpectExplanationHolds(const MoveRequest& m, const MoveVerdict& v, bool model) {
  if (v.code == MoveCode::kInvalid) {
    EXPECT_EQ(v.explanation, nullptr);
    return;
  }
  ASSERT_NE(v.explanation, nullptr);
  const MoveExplanation& e = *v.explanation;
  EXPECT_FALSE(e.reason.empty());
  EXPECT_EQ(e.to, m.to);
  if (m.from) EXPECT_EQ(e.from, *m.from);
  for (const MoveContact& c : e.contacts) {
    ASSERT_GE(c.sweep, 0);
    ASSERT_LT(static_cast<std::size_t>(c.sweep), e.sweeps.size());
    const MoveSweep& s = e.sweeps[static_cast<std::size_t>(c.sweep)];
    EXPECT_GE(c.t, 0.0);
    EXPECT_LE(c.t, 1.0);
    // On the segment: its distance to the line from..to is 0 and it lies
    // between the ends.
    const Vec3 d = s.to - s.from;
    const double along = LengthSquared(d) > 0.0 ? Dot(c.position - s.from, d) / LengthSquared(d) : 0.0;
    EXPECT_NEAR(Length(s.from + d * along - c.position), 0.0, 1e-9);
    EXPECT_NEAR(along, c.t, 1e-9);
  }
  if (!model && v.code == MoveCode::kBlocked) {
    ASSERT_FALSE(e.sweeps.empty());
    EXPECT_EQ(e.sweeps[0].purpose, "straight");
    EXPECT_EQ(e.sweeps[0].from, e.from);
    ASSERT_FALSE(e.contacts.empty());
    EXPECT_EQ(e.contacts[0].sweep, 0);
    EXPECT_EQ(e.contacts[0].target, v.target);
    if (m.slide) EXPECT_GT(e.sweeps.size(), 1u);
  }
}

// A level of Quake-unit boxes: a floor, walls around, 16- and 40-unit steps,
// a low ceiling, and a 30-degree ramp mesh.
std::vector<StaticElement> Level() {
  std::vector<StaticElement> statics;
  const std::vector<Shape> boxes = {
      Aabb{{-1000, -1000, -16}, {1000, 1000, 0}}, Aabb{{200, -300, 0}, {216, 300, 200}},
      Aabb{{-200, 100, 0}, {-100, 200, 16}},      Aabb{{-200, -200, 0}, {-100, -100, 40}},
      Aabb{{0, 200, 70}, {150, 280, 90}},         Aabb{{-400, 300, 0}, {400, 316, 200}},
      Aabb{{-336, -700, 0}, {-320, 300, 200}},    Aabb{{-400, -716, 0}, {400, -700, 200}}};
  for (const Shape& b : boxes) statics.push_back({static_cast<std::int64_t>(statics.size() + 1), 1, b});
  const double k = std::tan(M_PI / 6);
  MeshData ramp;
  ramp.vertices = {{-300, -600, 0}, {-100, -600, 200 * k}, {-100, -400, 200 * k}, {-300, -400, 0}};
  ramp.triangles = {{0, 1, 2}, {0, 2, 3}};
  statics.push_back({10, 1, std::make_shared<const TriangleMesh>(std::move(ramp))});
  return statics;
}

World MoveWorld(bool model) {
  WorldSettings settings;
  settings.skin_width = 0.125;
  settings.default_max_speed = 400;
  if (model) settings.movement = MovementModel::Quake();
  World w(settings, Level());
  Frame f{1, {}, {}};
  for (int b = 0; b < 8; ++b) {
    BodyUpdate up;
    up.id = b + 1;
    up.pose = Pose{{-150.0 + 40 * b, 0, 24}, {}};
    up.parts = {{0, Aabb{{-15, -15, -24}, {15, 15, 32}}, {}}};
    if (b % 2 == 1) up.movement_shape = Capsule{{0, 0, -9}, {0, 0, 17}, 15};
    f.bodies.push_back(std::move(up));
  }
  EXPECT_TRUE(w.PushFrame(f).ok());
  return w;
}

// Seeded batches of moves per body: runs, jumps, steps, walls, ceilings,
// falls and speed hacks, each body going on from `to` when OK, else put back.
void CheckRandomMoves(bool model, std::uint32_t seed) {
  const World plain = MoveWorld(model), explained = MoveWorld(model);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Vec3> at(8);
  for (int b = 0; b < 8; ++b) at[b] = {-150.0 + 40 * b, 0, 24};
  std::map<MoveCode, int> codes;
  int contacts = 0;
  for (int batch = 0; batch < 60; ++batch) {
    std::vector<MoveRequest> moves;
    for (int b = 0; b < 8; ++b) {
      MoveRequest m;
      m.body = b + 1;
      m.from = at[b];
      m.elapsed = 0.1;
      const double speed = std::abs(u(rng)) < 0.9 ? 300.0 : 900.0;
      Vec3 step{u(rng), u(rng), 0};
      step = NormalizedOr(step, Vec3{1, 0, 0}) * speed * m.elapsed;
      const double r = u(rng);
      if (r > 0.7) step.z += 20.0;    // up a step or a jump
      if (r < -0.8) step.z += 60.0;   // too high
      if (r < -0.9) step.z -= 100.0;  // a fall
      m.to = at[b] + step;
      m.slide = u(rng) > 0.0;
      m.stance = model && u(rng) > 0.7 ? 1 : 0;
      moves.push_back(m);
    }
    if (batch % 7 == 3) {
      MoveRequest unknown;  // body 0
      unknown.elapsed = 0.1;
      moves.push_back(unknown);
    }
    if (batch % 11 == 5) {
      MoveRequest bad = moves[0];
      bad.elapsed = -1;
      moves.push_back(bad);
    }
    const std::vector<MoveVerdict> a = plain.ValidateMoves(moves);
    for (MoveRequest& m : moves) m.explain = true;
    const std::vector<MoveVerdict> b = explained.ValidateMoves(moves);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      SCOPED_TRACE(testing::Message() << "batch " << batch << " move " << i);
      ExpectSameMove(a[i], b[i]);
      EXPECT_EQ(a[i].explanation, nullptr);
      ExpectExplanationHolds(moves[i], b[i], model);
      ++codes[b[i].code];
      if (b[i].explanation) contacts += static_cast<int>(b[i].explanation->contacts.size());
      if (i < 8 && b[i].code == MoveCode::kOk) at[i] = moves[i].to;
    }
  }
  EXPECT_GT(codes[MoveCode::kOk], 100);
  EXPECT_GE(contacts, 15);
  EXPECT_GT(codes[MoveCode::kUnknownBody], 0);
  EXPECT_GT(codes[MoveCode::kInvalid], 0);
  if (model) {
    EXPECT_GT(codes[MoveCode::kTooFastHorizontal], 5);
  } else {
    EXPECT_GT(codes[MoveCode::kBlocked], 5);
    EXPECT_GT(codes[MoveCode::kTooFast], 5);
  }
}

TEST(WorldExplain, StraightMoveVerdictsAreTheSameWithAnExplanation) { CheckRandomMoves(false, 21); }
TEST(WorldExplain, ModelMoveVerdictsAreTheSameWithAnExplanation) { CheckRandomMoves(true, 22); }

TEST(WorldExplain, ABlockedMoveWithSlideNamesItsSweepsAndRule) {
  World w = MoveWorld(false);
  MoveRequest m;
  m.body = 1;
  m.from = Vec3{150, 0, 24};
  m.to = Vec3{250, 60, 24};  // into the wall at x 200, sliding along it.
  m.elapsed = 0.5;
  m.slide = true;
  m.explain = true;
  const MoveVerdict v = w.ValidateMoves(std::span(&m, 1)).front();
  ASSERT_EQ(v.code, MoveCode::kBlocked);
  ASSERT_NE(v.explanation, nullptr);
  const MoveExplanation& e = *v.explanation;
  ASSERT_GE(e.sweeps.size(), 2u);
  EXPECT_EQ(e.sweeps[0].purpose, "straight");
  EXPECT_EQ(e.sweeps[1].purpose, "slide");
  EXPECT_EQ(e.sweeps[1].from, v.allowed_position);
  EXPECT_NEAR(e.contacts[0].normal.x, 1.0, 1e-9);  // from the body towards the wall.
  EXPECT_EQ(e.contacts[0].target.id, 2);
  EXPECT_NE(e.reason.find("static 2"), std::string::npos) << e.reason;
  ASSERT_TRUE(e.shape.has_value());
  EXPECT_TRUE(std::holds_alternative<Obb>(*e.shape));  // the part box, posed.
  EXPECT_EQ(e.horizontal_limit, 0.0);
}

TEST(WorldExplain, AModelMoveGivesItsLimits) {
  World w = MoveWorld(true);
  MoveRequest m;
  m.body = 1;
  m.from = Vec3{-150, 0, 24};
  m.to = Vec3{-150 + 30, 0, 24};
  m.elapsed = 0.05;  // 600 units/s: faster than Quake's ground speed.
  m.explain = true;
  const MoveVerdict v = w.ValidateMoves(std::span(&m, 1)).front();
  ASSERT_EQ(v.code, MoveCode::kTooFastHorizontal);
  const MoveExplanation& e = *v.explanation;
  EXPECT_TRUE(e.grounded_at_start);
  EXPECT_GT(e.horizontal_limit, 320.0);
  EXPECT_LT(e.horizontal_limit, 600.0);
  EXPECT_NE(e.reason.find("horizontal speed 600"), std::string::npos) << e.reason;
  ASSERT_FALSE(e.sweeps.empty());
  EXPECT_EQ(e.sweeps[0].purpose, "ground probe at from");
  ASSERT_FALSE(e.contacts.empty());
  EXPECT_NEAR(e.contacts[0].normal.z, -1.0, 1e-9);  // down onto the floor.
  m.to = Vec3{-150 + 10, 0, 24};
  m.from = Vec3{-150 + 30, 0, 24};
  const MoveVerdict ok = w.ValidateMoves(std::span(&m, 1)).front();
  ASSERT_EQ(ok.code, MoveCode::kOk);
  EXPECT_LT(ok.explanation->lowest_z, 24.0);
  EXPECT_GT(ok.explanation->highest_z, 24.0 + 18.0);  // a step and more.
  EXPECT_EQ(ok.explanation->reason, "OK");
}

}  // namespace
}  // namespace collide
