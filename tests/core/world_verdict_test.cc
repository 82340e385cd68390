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

TEST(WorldShotTest, ThroughTheDoorAfterTheTargetLeftIsMissedAndConfirmedBefore) {
  const World world = MakeWorld();
  // Tick 108: the ray passes the door and meets the back wall at x = 20; the
  // target is nowhere on it.
  std::vector<ShotRequest> shots{ShotAtHead(108), ShotAtHead(106)};
  const auto v = world.ValidateShots(shots);
  EXPECT_EQ(v[0].code, ShotCode::kMissed) << ShotCodeName(v[0].code);
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
  // 0.1 over the head (top at 1.75): a miss (the back wall is met), unless
  // the shooter is favoured by 0.15.
  s.origin.z = 1.85;
  s.tolerance = 0.0;
  const ShotVerdict over = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(over.code, ShotCode::kMissed);
  EXPECT_EQ(over.first_hit->target.id, kBackWall);
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
  const std::vector<ShotRequest> shots{missed,  old, future, far,     ghost,
                                       no_target, no_part, nan, zero,   fraction};
  const auto v = world.ValidateShots(shots);
  const std::vector<ShotCode> want{ShotCode::kMissed,
                                   ShotCode::kRewindTooOld,      ShotCode::kInTheFuture,
                                   ShotCode::kOriginImplausible, ShotCode::kUnknownShooter,
                                   ShotCode::kUnknownTarget,     ShotCode::kUnknownTarget,
                                   ShotCode::kInvalid,    ShotCode::kInvalid,
                                   ShotCode::kInvalid};
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(v[i].code, want[i]) << i << ": " << ShotCodeName(v[i].code);
  }
  EXPECT_DOUBLE_EQ(v[3].origin_offset, 2.5);
  EXPECT_EQ(v[7].problems.at(0).field, "direction.y");
  EXPECT_EQ(v[9].problems.at(0).field, "at.fraction");
  // Another body standing in front of the claimed one.
  World crowd({}, Level());
  ASSERT_TRUE(
      crowd.PushFrame({1, {Player(kShooter, {0, 0, 0}), Player(kTarget, {15, 0, 0}), Player(9, {12, 0, 0})}, {}})
          .ok());
  const ShotRequest other = ShotAtHead(1);
  const ShotVerdict o = crowd.ValidateShots({&other, 1})[0];
  EXPECT_EQ(o.code, ShotCode::kHitOtherBody) << ShotCodeName(o.code);
  EXPECT_EQ(o.first_hit->target.id, 9);
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
    EXPECT_NEAR(m.allowed_position.x, 30 - 0.4 - 0.01, 1e-9);  // a gap of skin_width.
    EXPECT_NEAR(m.normal.x, 1.0, 1e-9);
    EXPECT_EQ(m.slid_position, m.allowed_position);
  }
  EXPECT_NEAR(v[0].t, (30 - 0.4 - 25) / 10.0, 1e-12);  // the first contact.
  EXPECT_NEAR(v[1].t, (30 - 0.4 - 25) / (1e6 - 25), 1e-15);
  EXPECT_DOUBLE_EQ(v[0].speed, 200.0);
}

TEST(WorldMoveTest, SlidesAlongAWall) {
  const World world = MakeWorld();
  // Diagonally into the thin wall: stopped at x = 29.59, sliding keeps the
  // whole +y part of the move (the slide removes only the part into the wall).
  MoveRequest m = MoveOf(kRunner, {29, -5, 0}, {31, -3, 0}, 1.0, 10);
  m.slide = true;
  const MoveVerdict v = world.ValidateMoves({&m, 1})[0];
  EXPECT_EQ(v.code, MoveCode::kBlocked) << MoveCodeName(v.code);
  EXPECT_NEAR(v.allowed_position.x, 29.59, 1e-9);
  EXPECT_NEAR(v.slid_position.x, v.allowed_position.x, 1e-9);
  EXPECT_NEAR(v.slid_position.y, -3.0, 1e-9);
  EXPECT_NEAR(v.slid_position.z, 0.0, 1e-12);
}

TEST(WorldMoveTest, WalkingOnTheFloorIsOkTeleportIsTooFastPillarStartPenetrates) {
  World world = MakeWorld();
  // Standing on a floor of 1 x 1 squares and crossing 20 of its internal
  // edges (the capsule touches the floor the whole way).
  MoveRequest walk = MoveOf(kRunner, {25, -5, 0}, {25.3, -24.7, 0}, 2.0, 10);
  walk.from.reset();  // the body's position in the frame before the latest, (25, -5, 0).
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
  EXPECT_EQ(v[4].code, MoveCode::kInvalid);
  EXPECT_EQ(v[4].problems.at(0).field, "elapsed");
  // A body removed from the latest frame is unknown.
  ASSERT_TRUE(world.PushFrame({109, {}, {kRunner}}).ok());
  EXPECT_EQ(world.ValidateMoves({&walk, 1})[0].code, MoveCode::kUnknownBody);
}

// Issue 30's defects, each with the case that showed it.

// The tolerance is a distance from the part: a ray passing 0.55 from a box's
// corner edge misses with tolerance 0.5 (grown half extents reached it), one
// passing 0.45 from it is confirmed where the rounded box meets it.
TEST(WorldShotTest, ToleranceIsADistanceFromTheBoxNotGrownHalfExtents) {
  World world = MakeWorld();
  ShotRequest s = ShotAtHead(104);
  s.claim->part = kChest;  // [14.75, 15.25] x [-0.25, 0.25] x [1.0, 1.5] at tick 104.
  s.tolerance = 0.5;
  // Along +x, past the chest's edge (y = 0.25, z = 1.5) diagonally.
  const double d = 0.55 / std::sqrt(2.0);
  s.origin = {0, 0.25 + d, 1.5 + d};
  ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kMissed) << ShotCodeName(v.code);
  EXPECT_NEAR(v.claim_miss_distance, 0.55, 1e-9);
  const double e = 0.45 / std::sqrt(2.0);
  s.origin = {0, 0.25 + e, 1.5 + e};
  v = world.ValidateShots({&s, 1})[0];
  ASSERT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
  // The ray enters the rounded edge where its distance to the edge is 0.5:
  // at x = 14.75 - sqrt(0.5^2 - 0.45^2).
  EXPECT_NEAR(v.first_hit->distance, 14.75 - std::sqrt(0.25 - 0.2025), 1e-9);
}

// A body whose box part is listed after or before its head gives the same
// verdict: with tolerance 0.3, the grown chest is met first.
TEST(WorldShotTest, ToleranceVerdictDoesNotDependOnPartOrder) {
  for (const bool box_first : {false, true}) {
    World world({}, Level());
    BodyUpdate target = Player(kTarget, {15, 0, 0});
    if (box_first) std::swap(target.parts[0], target.parts[1]);
    ASSERT_TRUE(world.PushFrame({1, {Player(kShooter, {0, 0, 0}), target}, {}}).ok());
    ShotRequest s = ShotAtHead(1);
    s.claim->part = kChest;
    s.tolerance = 0.3;
    // Just above the chest's top (z = 1.5) and below the head's bottom (1.45
    // grown: 1.15), slanting up into the head.
    s.origin = {0, 0, 1.72};
    s.direction = {15, 0, -0.2};
    const ShotVerdict v = world.ValidateShots({&s, 1})[0];
    SCOPED_TRACE(box_first ? "box first" : "head first");
    EXPECT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
    ASSERT_TRUE(v.first_hit.has_value());
    EXPECT_EQ(v.first_hit->target.part, kChest);
  }
}

// With a claim, the claimed body nowhere on the ray is MISSED, even when a
// wall or another body is met; a claim on the shooter's own body is invalid.
TEST(WorldShotTest, ClaimOffTheRayIsMissedAndSelfClaimIsInvalid) {
  const World world = MakeWorld();
  ShotRequest wall = ShotAtHead(108);  // the target has left; the door wall is met.
  wall.direction = {1, 0.3, 0};
  ShotRequest self = ShotAtHead(108);
  self.claim->body = kShooter;
  const std::vector<ShotRequest> shots{wall, self};
  const auto v = world.ValidateShots(shots);
  EXPECT_EQ(v[0].code, ShotCode::kMissed) << ShotCodeName(v[0].code);
  ASSERT_TRUE(v[0].first_hit.has_value());
  EXPECT_EQ(v[0].first_hit->target.id, kDoorWall);
  EXPECT_EQ(v[1].code, ShotCode::kInvalid) << ShotCodeName(v[1].code);
  EXPECT_EQ(v[1].problems.at(0).field, "claim.body");
}

// Times and frames outside [-2^61, 2^61] are refused instead of overflowing.
TEST(WorldShotTest, TicksAtTheInt64EdgesAreInvalid) {
  World world({}, Level());
  EXPECT_EQ(world.PushFrame({INT64_MAX, {Player(kShooter, {0, 0, 0})}, {}}).kind, FrameError::Kind::kInvalid);
  ASSERT_TRUE(world.PushFrame({-100, {Player(kShooter, {0, 0, 0})}, {}}).ok());
  ASSERT_TRUE(world.PushFrame({kMaxWorldTick, {}, {}}).ok());
  ShotRequest s = ShotAtHead(INT64_MIN);
  s.claim.reset();
  ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kInvalid);
  EXPECT_EQ(v.problems.at(0).field, "at.tick");
  s.at->tick = -kMaxWorldTick;  // far older than the rewind window: refused, no overflow.
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kRewindTooOld);
}

// A move ending inside a floor by less than skin_width is OK; deeper is
// BLOCKED, with t at the first touch and a gap of skin_width kept.
TEST(WorldMoveTest, EndingWithinTheSkinIsOkDeeperIsBlockedAtFirstContact) {
  const World world = MakeWorld();
  // The runner's capsule bottom is at z = 0 (touching the floor): down by
  // 0.008 (< skin 0.01) and by 0.012.
  const std::vector<MoveRequest> moves{MoveOf(kRunner, {25.3, -5.4, 0.002}, {25.3, -5.4, -0.008}, 0.05, 10),
                                       MoveOf(kRunner, {25.3, -5.4, 0.1}, {25.3, -5.4, -0.012}, 0.05, 10)};
  const auto v = world.ValidateMoves(moves);
  EXPECT_EQ(v[0].code, MoveCode::kOk) << MoveCodeName(v[0].code);
  ASSERT_EQ(v[1].code, MoveCode::kBlocked) << MoveCodeName(v[1].code);
  EXPECT_NEAR(v[1].t, 0.1 / 0.112, 1e-12);  // touches the floor at z = 0.
  EXPECT_NEAR(v[1].allowed_position.z, 0.01, 1e-12);
  EXPECT_NEAR(v[1].normal.z, -1.0, 1e-12);
}

// A move without `from` starts where the body was in the frame before the
// latest: pushing the frame, then validating the move into it, judges it.
TEST(WorldMoveTest, MoveWithoutFromStartsAtTheFrameBeforeTheLatest) {
  World world({}, Level());
  ASSERT_TRUE(world.PushFrame({1, {Player(kRunner, {0, 0, 0.1})}, {}}).ok());
  MoveRequest m = MoveOf(kRunner, {}, {1, 0, 0.1}, 0.05, 10);
  m.from.reset();
  // One frame: from the latest, (0, 0, 0.1).
  EXPECT_DOUBLE_EQ(world.ValidateMoves({&m, 1})[0].speed, 20.0);
  ASSERT_TRUE(world.PushFrame({2, {At(kRunner, {1, 0, 0.1})}, {}}).ok());
  const MoveVerdict v = world.ValidateMoves({&m, 1})[0];
  EXPECT_EQ(v.code, MoveCode::kTooFast) << MoveCodeName(v.code);
  EXPECT_DOUBLE_EQ(v.speed, 20.0);
  // A teleport into the latest frame starts there.
  BodyUpdate jump = At(kRunner, {5, 0, 0.1});
  jump.teleport = true;
  ASSERT_TRUE(world.PushFrame({3, {jump}, {}}).ok());
  m.to = {5.1, 0, 0.1};
  EXPECT_NEAR(world.ValidateMoves({&m, 1})[0].speed, 2.0, 1e-12);
}

// Rotations accepted within 1e-6 of unit length are normalised: a body turning
// 0.5 rad between frames given with norms 1 + 8e-7 and 1 - 8e-7 interpolates
// as the unit quaternions do.
TEST(WorldHistoryTest, RotationsAtTheEdgeOfTheAcceptedNormAreNormalised) {
  const Quat a{1, 0, 0, 0};
  const Quat b{std::cos(0.25), 0, 0, std::sin(0.25)};
  const auto scaled = [](const Quat& q, double k) { return Quat{q.w * k, q.x * k, q.y * k, q.z * k}; };
  World world({}, Level());
  BodyUpdate first = Player(kTarget, {0, 0, 0});
  first.pose->rotation = scaled(a, 1 + 8e-7);
  BodyUpdate second = At(kTarget, {0, 0, 0});
  second.pose->rotation = scaled(b, 1 - 8e-7);
  ASSERT_TRUE(world.PushFrame({1, {first}, {}}).ok());
  ASSERT_TRUE(world.PushFrame({2, {second}, {}}).ok());
  for (const double f : {0.25, 0.5, 0.75}) {
    const Pose got = *world.BodyPoseAt(kTarget, Time{1, f});
    const Pose want = Interpolate(Pose{{}, a}, Pose{{}, b}, f);
    // Unnormalised inputs put the result 1.5e-7 rad off (7e-8 per component).
    EXPECT_NEAR(got.rotation.w, want.rotation.w, 1e-15) << f;
    EXPECT_NEAR(got.rotation.z, want.rotation.z, 1e-15) << f;
  }
}

}  // namespace
}  // namespace collide
