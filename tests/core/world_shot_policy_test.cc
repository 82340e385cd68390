// Shots as a game server judges them (issue 32): the origin against the
// shooter's present eye with an allowance for its motion, the view time
// against the server's expectation, old shots clamped by policy, what the
// ray sees (category mask, ignored bodies), and the teleport guard. Quake
// units at 20 ticks per second: a runner at 320 units/s covers 16 per tick.
#include <gtest/gtest.h>

#include <cmath>

#include "collide/world.h"

namespace collide {
namespace {

enum : std::int64_t { kShooter = 1, kTarget = 2, kMate = 3, kGlass = 100 };
constexpr std::int32_t kHead = 0, kChest = 1;
constexpr double kEye = 22.0, kRun = 16.0;  // eye height; run distance per tick.
constexpr CategoryMask kPlayers = 1, kTeamA = 2, kGlassCategory = 4, kWalls = 8;

BodyUpdate Player(std::int64_t id, const Vec3& p, CategoryMask category = kPlayers) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, Quat{}};
  u.parts = {{kHead, Sphere{{0, 0, kEye}, 6}, Pose{}}, {kChest, Aabb{{-12, -12, -10}, {12, 12, 16}}, Pose{}}};
  u.category = category;
  u.eye = Vec3{0, 0, kEye};
  return u;
}
BodyUpdate At(std::int64_t id, const Vec3& p) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, Quat{}};
  return u;
}

// A pane of glass (category 4) at x = 300 across the line of fire.
std::vector<StaticElement> Level() {
  MeshData glass;
  glass.vertices = {{300, -100, -50}, {300, 100, -50}, {300, 100, 100}, {300, -100, 100}};
  glass.triangles = {{0, 1, 2}, {0, 2, 3}};
  return {{kGlass, kGlassCategory, std::make_shared<const TriangleMesh>(std::move(glass))}};
}

// Ticks 1..10: the shooter runs +x from the origin, the target stands at
// x = 400 behind the glass, a teammate at x = 250 in the line of fire but
// 30 units to the side until tick 6, then in it.
World Match(WorldSettings settings = {}) {
  settings.max_origin_offset = 2;
  settings.max_rewind_ticks = 8;
  World world(settings, Level());
  for (std::int64_t tick = 1; tick <= 10; ++tick) {
    const Vec3 runner{kRun * static_cast<double>(tick - 1), 0, 0};
    const Vec3 mate{250, tick < 6 ? 30.0 : 0.0, 0};
    Frame f{tick, {}, {}};
    if (tick == 1) {
      f.bodies = {Player(kShooter, runner, kTeamA), Player(kTarget, {400, 0, 0}), Player(kMate, mate, kTeamA)};
    } else {
      f.bodies = {At(kShooter, runner), At(kMate, mate)};
    }
    EXPECT_TRUE(world.PushFrame(f).ok());
  }
  return world;
}

// The shot a real client fires at tick 10 after seeing the target at tick
// 8: from its present eye, half a tick ahead of the server's latest frame.
ShotRequest Honest() {
  ShotRequest s;
  s.shooter = kShooter;
  s.origin = {kRun * 9 + kRun / 2, 0, kEye};
  s.direction = Vec3{400, 0, kEye} - s.origin;
  s.at = Time{8, 0.0};
  s.claim = ShotClaim{kTarget, kHead};
  return s;
}

TEST(WorldShotPolicyTest, TheOriginIsCheckedAgainstThePresentEyeWithTheShootersMotion) {
  const World world = Match();
  ShotRequest s = Honest();
  s.mask = ~kTeamA;  // through teammates.
  s.mask &= ~kGlassCategory;
  ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, kRun / 2, 1e-12);
  EXPECT_NEAR(v.origin_allowance, 2 + kRun, 1e-12);
  // 20 units off the eye: beyond 2 + 16.
  s.origin.y = 20;
  s.direction = Vec3{400, 0, kEye} - s.origin;
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kOriginImplausible) << ShotCodeName(v.code);
  // The command's tick may be given: at tick 9 the eye was 16 units back,
  // so the honest origin is too, and today's is 24 units off.
  s = Honest();
  s.mask = ~kTeamA & ~kGlassCategory;
  s.command_at = Time{9, 0.0};
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kOriginImplausible);
  s.origin.x -= kRun;
  s.direction = Vec3{400, 0, kEye} - s.origin;
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, kRun / 2, 1e-12);
  // A shooter the world does not know.
  s.shooter = 77;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kUnknownShooter);
}

TEST(WorldShotPolicyTest, AViewTimeFarFromTheExpectedOneIsABacktrack) {
  const World world = Match();
  ShotRequest s = Honest();
  s.mask = ~kTeamA & ~kGlassCategory;
  s.expected_at = Time{8, 0.25};
  s.max_skew_ticks = 1;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kConfirmed);
  s.at = Time{5, 0.0};  // 3.25 ticks older than expected: a backtrack.
  const ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kViewTimeImplausible) << ShotCodeName(v.code);
  EXPECT_FALSE(v.first_hit.has_value());
  s.max_skew_ticks = -1;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kInvalid);
}

TEST(WorldShotPolicyTest, OldShotsAreRejectedOrClampedByPolicy) {
  ShotRequest s = Honest();
  s.mask = ~kTeamA & ~kGlassCategory;
  s.at = Time{1, 0.5};  // 8.5 ticks back: beyond the 8 allowed.
  EXPECT_EQ(Match().ValidateShots({&s, 1})[0].code, ShotCode::kRewindTooOld);
  WorldSettings clamp;
  clamp.clamp_old_shots = true;
  const ShotVerdict v = Match(clamp).ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
  EXPECT_TRUE(v.time.clamped);
  EXPECT_EQ(v.time.used, (Time{2, 0.0}));
}

TEST(WorldShotPolicyTest, CategoryMaskAndIgnoreListChooseWhatTheRaySees) {
  const World world = Match();
  ShotRequest s = Honest();
  // Everything seen: the teammate (in the line of fire since tick 6) first.
  ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kHitOtherBody) << ShotCodeName(v.code);
  EXPECT_EQ(v.first_hit->target.id, kMate);
  // The teammate ignored: the glass.
  s.ignored_bodies = {kMate};
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kBlocked) << ShotCodeName(v.code);
  EXPECT_EQ(v.first_hit->target.id, kGlass);
  // Bullets pass glass: the target.
  s.mask = ~kGlassCategory;
  EXPECT_EQ(world.ValidateShots({&s, 1})[0].code, ShotCode::kConfirmed);
  // Claiming an ignored body, or one outside the mask, is invalid.
  s.claim = ShotClaim{kMate, kHead};
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kInvalid);
  EXPECT_EQ(v.problems.at(0).field, "claim.body");
  s.ignored_bodies.clear();
  s.mask = ~kTeamA;
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kInvalid);
  EXPECT_EQ(v.problems.at(0).field, "claim.body");
}

TEST(WorldShotPolicyTest, TheTeleportGuardStopsInterpolationAndFlagsRewindsAcrossIt) {
  WorldSettings guard;
  guard.max_tick_distance = 64;
  World world = Match(guard);
  // The target jumps 500 units without the frame's teleport flag.
  ASSERT_TRUE(world.PushFrame({11, {At(kTarget, {400, 500, 0})}, {}}).ok());
  ASSERT_TRUE(world.PushFrame({12, {At(kTarget, {400, 540, 0})}, {}}).ok());  // 40: a run.
  EXPECT_EQ(world.detected_teleports(), 1);
  // Not interpolated across the jump; interpolated across the run after it.
  EXPECT_EQ(world.BodyPoseAt(kTarget, Time{10, 0.5})->position, (Vec3{400, 0, 0}));
  EXPECT_EQ(world.BodyPoseAt(kTarget, Time{11, 0.5})->position, (Vec3{400, 520, 0}));
  ShotRequest s = Honest();
  s.origin = {kRun * 9, 0, kEye};  // the shooter stands still since tick 10: its eye.
  s.direction = Vec3{400, 0, kEye} - s.origin;
  s.mask = ~kTeamA & ~kGlassCategory;
  s.at = Time{10, 0.0};
  ShotVerdict v = world.ValidateShots({&s, 1})[0];
  EXPECT_EQ(v.code, ShotCode::kConfirmed) << ShotCodeName(v.code);
  EXPECT_TRUE(v.rewound_across_teleport);
  s.at = Time{11, 0.0};  // after the jump: nothing rewound across it.
  s.direction = Vec3{400, 500, kEye} - s.origin;
  v = world.ValidateShots({&s, 1})[0];
  EXPECT_FALSE(v.rewound_across_teleport);
  // Without the guard the jump is interpolated.
  World plain = Match();
  ASSERT_TRUE(plain.PushFrame({11, {At(kTarget, {400, 500, 0})}, {}}).ok());
  EXPECT_EQ(plain.BodyPoseAt(kTarget, Time{10, 0.5})->position, (Vec3{400, 250, 0}));
  EXPECT_EQ(plain.detected_teleports(), 0);
}

}  // namespace
}  // namespace collide
