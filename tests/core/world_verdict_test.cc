// Shot and move verdicts on a level a reader can draw: a wall with a doorway
// at x = 10 (door |y| < 1, z < 2.2), a back wall at x = 20, a thin wall at
// x = 30, a floor of many triangles, and a pillar. One tick is 50 ms.
#include <gtest/gtest.h>

#include <cmath>

#include "collide/world.h"

namespace collide {
namespace {

enum : std::int64_t { kDoorWall = 100, kBackWall = 101, kThinWall = 102, kFloor = 103, kPillar = 104 };
enum : std::int32_t { kHead = 1, kChest = 2, kLegs = 3 };

// A rectangle in the plane x = const, as two triangles.
void AddWallRect(MeshData& m, double x, double y0, double y1, double z0, double z1) {
  const auto base = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.insert(m.vertices.end(), {{x, y0, z0}, {x, y1, z0}, {x, y1, z1}, {x, y0, z1}});
  m.triangles.push_back({base, base + 1, base + 2});
  m.triangles.push_back({base, base + 2, base + 3});
}

std::shared_ptr<const TriangleMesh> Mesh(MeshData m) {
  return std::make_shared<const TriangleMesh>(std::move(m));
}

// A floor at z = 0 over [-50, 50]^2 made of 1 x 1 squares (internal edges).
MeshData Floor() {
  MeshData m;
  const int n = 100;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) m.vertices.push_back({-50.0 + i, -50.0 + j, 0.0});
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const auto v = static_cast<std::uint32_t>(j * (n + 1) + i);
      m.triangles.push_back({v, v + 1, v + n + 2});
      m.triangles.push_back({v, v + n + 2, v + n + 1});
    }
  }
  return m;
}

std::vector<StaticElement> Level() {
  MeshData door;
  AddWallRect(door, 10, -20, -1, 0, 3);
  AddWallRect(door, 10, 1, 20, 0, 3);
  AddWallRect(door, 10, -1, 1, 2.2, 3);
  MeshData back, thin;
  AddWallRect(back, 20, -20, 20, 0, 3);
  AddWallRect(thin, 30, -20, 20, 0, 3);
  return {{kDoorWall, kAllCategories, Mesh(door)},
          {kBackWall, kAllCategories, Mesh(back)},
          {kThinWall, kAllCategories, Mesh(thin)},
          {kFloor, kAllCategories, Mesh(Floor())},
          {kPillar, kAllCategories, Shape{Aabb{{39, -1, 0}, {41, 1, 4}}}}};
}

// A player: head sphere, chest box, legs capsule; a standing capsule for moves
// (touching the floor at z = 0).
BodyUpdate Player(std::int64_t id, const Vec3& p) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, Quat{}};
  u.parts = {{kHead, Sphere{{0, 0, 1.6}, 0.15}, Pose{}},
             {kChest, Aabb{{-0.25, -0.25, 1.0}, {0.25, 0.25, 1.5}}, Pose{}},
             {kLegs, Capsule{{0, 0, 0.2}, {0, 0, 0.9}, 0.2}, Pose{}}};
  u.movement_shape = Capsule{{0, 0, 0.4}, {0, 0, 1.4}, 0.4};
  return u;
}
BodyUpdate At(std::int64_t id, const Vec3& p) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, Quat{}};
  return u;
}

constexpr std::int64_t kShooter = 1, kTarget = 7, kRunner = 2;

// Ticks 100..108. The target stands at (15, 0) in plain view through the door
// until tick 106, then runs +y: (15, 1.5) at 107, (15, 3) at 108, where the
// door wall hides it from the shooter at the origin.
World MakeWorld() {
  World world({}, Level());
  EXPECT_TRUE(world
                  .PushFrame({100,
                              {Player(kShooter, {0, 0, 0}), Player(kTarget, {15, 0, 0}),
                               Player(kRunner, {25, -5, 0})},
                              {}})
                  .ok());
  for (std::int64_t tick = 101; tick <= 108; ++tick) {
    const double y = tick <= 106 ? 0.0 : 1.5 * static_cast<double>(tick - 106);
    EXPECT_TRUE(world.PushFrame({tick, {At(kTarget, {15, y, 0})}, {}}).ok());
  }
  return world;
}

ShotRequest ShotAtHead(std::int64_t tick) {
  ShotRequest s;
  s.shooter = kShooter;
  s.origin = {0, 0, 1.6};
  s.direction = {1, 0, 0};
  s.max_range = 1000;
  s.at = Time{tick, 0.0};
  s.claim = ShotClaim{kTarget, kHead};
  return s;
}

TEST(WorldShotTest, ThroughTheDoorAfterTheTargetLeftIsBlockedAndConfirmedBefore) {
  const World world = MakeWorld();
  // Tick 108: the ray passes the door and meets the back wall at x = 20.
  std::vector<ShotRequest> shots{ShotAtHead(108), ShotAtHead(106)};
  const auto v = world.ValidateShots(shots);
  EXPECT_EQ(v[0].code, ShotCode::kBlocked) << ShotCodeName(v[0].code);
  ASSERT_TRUE(v[0].first_hit);
  EXPECT_EQ(v[0].first_hit->target.id, kBackWall);
  EXPECT_DOUBLE_EQ(v[0].first_hit->distance, 20.0);
  EXPECT_EQ(v[0].time.used, (Time{108, 0.0}));
  // The head, 3 m to the side of the ray, at radius 0.15.
  EXPECT_NEAR(v[0].claim_miss_distance, 3.0 - 0.15, 1e-9);
  // 100 ms (2 ticks) earlier the head was on the ray: front at x = 14.85.
  EXPECT_EQ(v[1].code, ShotCode::kConfirmed) << ShotCodeName(v[1].code);
  EXPECT_NEAR(v[1].first_hit->distance, 14.85, 1e-12);
  EXPECT_EQ(v[1].first_hit->target, (HitTarget{HitTarget::Kind::kBody, kTarget, 0, kHead}));
  EXPECT_EQ(v[1].claim_miss_distance, -1.0);
  // Half way between 107 and 108 the head is at y = 2.25: hidden, blocked.
  ShotRequest aimed = ShotAtHead(107);
  aimed.at->fraction = 0.5;
  aimed.direction = Vec3{15, 2.25, 0};
  const auto w = world.ValidateShots({&aimed, 1});
  EXPECT_EQ(w[0].code, ShotCode::kBlocked);
  EXPECT_EQ(w[0].first_hit->target.id, kDoorWall);
  EXPECT_NEAR(w[0].first_hit->point.x, 10.0, 1e-12);
}

TEST(WorldShotTest, HeadClaimedChestFirstIsHitOtherPart) {
  const World world = MakeWorld();
  // At z = 1.48 the chest box (front face x = 14.75, top 1.5) comes before
  // the head sphere (front at x = 15 - sqrt(0.15^2 - 0.12^2) = 14.91).
  ShotRequest s = ShotAtHead(106);
  s.origin.z = 1.48;
  const auto v = world.ValidateShots({&s, 1});
  EXPECT_EQ(v[0].code, ShotCode::kHitOtherPart) << ShotCodeName(v[0].code);
  EXPECT_EQ(v[0].first_hit->target.part, kChest);
  EXPECT_NEAR(v[0].first_hit->distance, 14.75, 1e-12);
  EXPECT_EQ(v[0].claim_miss_distance, 0.0);  // the ray goes through the head too.
  // The tolerance grows every part of the claimed body: still the chest.
  s.tolerance = 0.2;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kHitOtherPart);
  // 0.1 over the head (top at 1.75): through the door to the back wall,
  // unless the shooter is favoured by 0.15.
  s.origin.z = 1.85;
  s.tolerance = 0.0;
  const ShotVerdict over = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(over.code, ShotCode::kBlocked);
  EXPECT_NEAR(over.claim_miss_distance, 0.1, 1e-12);
  s.tolerance = 0.15;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kConfirmed);
  s.origin.z = 1.48;
  // Claiming the chest at z = 1.48 is confirmed.
  s.tolerance = 0.0;
  s.claim->part = kChest;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kConfirmed);
}

TEST(WorldShotTest, OtherBodyMissedAndEveryRejection) {
  World world = MakeWorld();
  ShotRequest other = ShotAtHead(106);  // the runner claimed, the target in the way.
  other.claim->body = kRunner;
  ShotRequest missed = ShotAtHead(108);
  missed.direction = {-1, 0, 0};
  ShotRequest old = ShotAtHead(108 - 33);  // max_rewind_ticks = 32
  ShotRequest future = ShotAtHead(109);
  ShotRequest far = ShotAtHead(108);
  far.origin = {0, 0, 2.5};  // 2.5 from the shooter's position: > 2
  ShotRequest ghost = ShotAtHead(108);
  ghost.shooter = 999;
  ShotRequest no_target = ShotAtHead(108);
  no_target.claim->body = 999;
  ShotRequest no_part = ShotAtHead(108);
  no_part.claim->part = 99;
  ShotRequest nan = ShotAtHead(108);
  nan.direction.y = std::nan("");
  ShotRequest zero = ShotAtHead(108);
  zero.direction = {};
  ShotRequest fraction = ShotAtHead(108);
  fraction.at->fraction = 1.0;
  const std::vector<ShotRequest> shots{other,     missed,  old, future, far,     ghost,
                                       no_target, no_part, nan, zero,   fraction};
  const auto v = world.ValidateShots(shots);
  const std::vector<ShotCode> want{ShotCode::kHitOtherBody,      ShotCode::kMissed,
                                   ShotCode::kRewindTooOld,      ShotCode::kInTheFuture,
                                   ShotCode::kOriginImplausible, ShotCode::kUnknownShooter,
                                   ShotCode::kUnknownTarget,     ShotCode::kUnknownTarget,
                                   ShotCode::kInvalidRequest,    ShotCode::kInvalidRequest,
                                   ShotCode::kInvalidRequest};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(v[i].code, want[i]) << i << ": " << ShotCodeName(v[i].code);
  }
  EXPECT_EQ(v[0].first_hit->target.id, kTarget);
  EXPECT_DOUBLE_EQ(v[4].origin_offset, 2.5);
  EXPECT_EQ(v[8].problems.at(0).field, "direction.y");
  EXPECT_EQ(v[10].problems.at(0).field, "at.fraction");
  // Unset time = the latest frame; a shot at the oldest kept tick is in policy.
  ShotRequest latest = ShotAtHead(0);
  latest.at.reset();
  EXPECT_EQ(world.ValidateShots({&latest, 1})[0].time.used, (Time{108, 0.0}));
  // A rewind beyond the kept history but within policy is clamped and said so.
  WorldSettings short_history;
  short_history.history_ticks = 4;
  World small(short_history, Level());
  for (std::int64_t tick = 1; tick <= 10; ++tick) {
    ASSERT_TRUE(
        small.PushFrame({tick, {tick == 1 ? Player(kShooter, {0, 0, 0}) : At(kShooter, {0, 0, 0})}, {}})
            .ok());
  }
  ShotRequest clamp = ShotAtHead(3);
  clamp.claim.reset();
  const ShotVerdict c = small.ValidateShots({&clamp, 1})[0];
  EXPECT_TRUE(c.time.clamped);
  EXPECT_EQ(c.time.used, (Time{7, 0.0}));
  EXPECT_EQ(c.code, ShotCode::kBlocked);  // the back wall through the door
  // No frame at all: the shooter is unknown.
  World empty({}, Level());
  EXPECT_EQ(empty.ValidateShots({&clamp, 1})[0].code, ShotCode::kUnknownShooter);
}

MoveRequest MoveOf(std::int64_t body, const Vec3& from, const Vec3& to, double elapsed, double max_speed) {
  MoveRequest m;
  m.body = body;
  m.from = from;
  m.to = to;
  m.elapsed = elapsed;
  m.max_speed = max_speed;
  return m;
}

TEST(WorldMoveTest, FastMoveThroughAThinWallIsBlockedWhateverTheSpeed) {
  const World world = MakeWorld();
  // The runner's capsule (radius 0.4) from x = 25 to x = 35 across the
  // zero-thickness wall at x = 30, then the same move 10^6 times longer.
  std::vector<MoveRequest> moves{MoveOf(kRunner, {25, -5, 0}, {35, -5, 0}, 0.05, 1e9),
                                 MoveOf(kRunner, {25, -5, 0}, {1e6, -5, 0}, 0.05, 1e9)};
  const auto v = world.ValidateMoves(moves);
  for (const MoveVerdict& m : v) {
    EXPECT_EQ(m.code, MoveCode::kBlocked) << MoveCodeName(m.code);
    EXPECT_EQ(m.target.id, kThinWall);
    EXPECT_NEAR(m.allowed_position.x, 30 - 0.4 - 0.005, 1e-6);  // skin / 2 short.
    EXPECT_NEAR(m.normal.x, 1.0, 1e-9);
    EXPECT_EQ(m.slid_position, m.allowed_position);
  }
  EXPECT_NEAR(v[0].t, (30 - 0.4 + 0.005 - 25) / 10.0, 1e-9);  // at depth skin / 2.
  EXPECT_DOUBLE_EQ(v[0].speed, 200.0);
}

TEST(WorldMoveTest, SlidesAlongAWall) {
  const World world = MakeWorld();
  // Diagonally into the thin wall: stopped at x = 29.595, sliding keeps the
  // whole +y part of the move (the slide removes only the part into the wall).
  MoveRequest m = MoveOf(kRunner, {29, -5, 0}, {31, -3, 0}, 1.0, 10);
  m.slide = true;
  const MoveVerdict v = world.ValidateMoves({&m, 1})[0];
  EXPECT_EQ(v.code, MoveCode::kBlocked) << MoveCodeName(v.code);
  EXPECT_NEAR(v.allowed_position.x, 29.595, 1e-6);
  EXPECT_NEAR(v.slid_position.x, v.allowed_position.x, 1e-9);
  EXPECT_NEAR(v.slid_position.y, -3.0, 1e-9);
  EXPECT_NEAR(v.slid_position.z, 0.0, 1e-12);
}

TEST(WorldMoveTest, WalkingOnTheFloorIsOkTeleportIsTooFastPillarStartPenetrates) {
  World world = MakeWorld();
  // Standing on a floor of 1 x 1 squares and crossing 20 of its internal
  // edges (the capsule touches the floor the whole way).
  MoveRequest walk = MoveOf(kRunner, {25, -5, 0}, {25.3, -24.7, 0}, 2.0, 10);
  walk.from.reset();  // the body's position in the latest frame, (25, -5, 0).
  // 100 units in one tick at the default 10 units/s: a teleport.
  MoveRequest teleport = MoveOf(kRunner, {25, -5, 0}, {125, -5, 0}, 0.05, 10);
  teleport.max_speed.reset();
  // Starting inside the pillar [39, 41] x [-1, 1]: 1.4 from its nearest face.
  MoveRequest pillar = MoveOf(kRunner, {40, 0, 0}, {40.1, 0, 0}, 0.05, 10);
  MoveRequest ghost = MoveOf(999, {0, 0, 0}, {0, 0, 0}, 0.05, 10);
  MoveRequest bad = MoveOf(kRunner, {0, 0, 0}, {0, 0, 0}, 0.0, 10);
  const std::vector<MoveRequest> moves{walk, teleport, pillar, ghost, bad};
  const auto v = world.ValidateMoves(moves);
  EXPECT_EQ(v[0].code, MoveCode::kOk) << MoveCodeName(v[0].code);
  EXPECT_EQ(v[0].allowed_position, walk.to);
  EXPECT_EQ(v[1].code, MoveCode::kTooFast);
  EXPECT_DOUBLE_EQ(v[1].speed, 2000.0);
  EXPECT_EQ(v[2].code, MoveCode::kStartPenetrating);
  EXPECT_EQ(v[2].target.id, kPillar);
  EXPECT_NEAR(v[2].depth, 1.4, 1e-9);
  EXPECT_EQ(v[3].code, MoveCode::kUnknownBody);
  EXPECT_EQ(v[4].code, MoveCode::kInvalidRequest);
  EXPECT_EQ(v[4].problems.at(0).field, "elapsed");
  // A body removed from the latest frame is unknown.
  ASSERT_TRUE(world.PushFrame({109, {}, {kRunner}}).ok());
  EXPECT_EQ(world.ValidateMoves({&walk, 1})[0].code, MoveCode::kUnknownBody);
}

}  // namespace
}  // namespace collide
