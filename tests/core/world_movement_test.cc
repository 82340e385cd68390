// Moves under the movement model (collide/movement.h) with the Quake preset,
// on small levels of boxes and ramps in Quake units: stairs, ramps, a ledge,
// a jump arc, flying, a fall faster than gravity, crouching under a low
// ceiling. Each asserts the verdict code (and where it matters the ground and
// the allowed position); the model keeps each body's arc between calls.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "collide/world.h"

namespace collide {
namespace {

constexpr std::int64_t kPlayer = 1;
constexpr double kTick = 0.016;

Shape Box(const Vec3& lo, const Vec3& hi) { return Aabb{lo, hi}; }

// A world of static boxes (and meshes) with the Quake model and the player
// at `start` (box origin: feet 24 below it).
World Level(std::vector<Shape> boxes, const Vec3& start, std::vector<MeshData> meshes = {}) {
  WorldSettings settings;
  settings.movement = MovementModel::Quake();
  std::vector<StaticElement> statics;
  for (const Shape& b : boxes)
    statics.push_back({static_cast<std::int64_t>(statics.size() + 1), kAllCategories, b});
  for (MeshData& m : meshes) {
    statics.push_back({static_cast<std::int64_t>(statics.size() + 1), kAllCategories,
                       std::make_shared<const TriangleMesh>(std::move(m))});
  }
  World w(settings, std::move(statics));
  Frame f{1, {}, {}};
  f.bodies.push_back(
      {kPlayer, Pose{start, {}}, {{0, Sphere{{0, 0, 0}, 10}, {}}}, {}, std::nullopt, std::nullopt, false});
  EXPECT_TRUE(w.PushFrame(f).ok());
  return w;
}

MoveVerdict Move(const World& w, const Vec3& from, const Vec3& to, double elapsed = kTick, int stance = 0) {
  MoveRequest m;
  m.body = kPlayer;
  m.from = from;
  m.to = to;
  m.elapsed = elapsed;
  m.stance = stance;
  return w.ValidateMoves(std::span(&m, 1)).front();
}

const Shape kFloor = Box({-1000, -1000, -16}, {1000, 1000, 0});

TEST(WorldMovement, StairsOf16AreWalkedAndOf24AreTooHigh) {
  const World low = Level({kFloor, Box({20, -100, 0}, {200, 100, 16})}, {0, 0, 24});
  const MoveVerdict up = Move(low, {0, 0, 24}, {24, 0, 40}, 0.1);
  EXPECT_EQ(up.code, MoveCode::kOk) << MoveCodeName(up.code);
  EXPECT_TRUE(up.grounded);
  const World high = Level({kFloor, Box({20, -100, 0}, {200, 100, 24})}, {0, 0, 24});
  const MoveVerdict blocked = Move(high, {0, 0, 24}, {24, 0, 48}, 0.1);
  EXPECT_EQ(blocked.code, MoveCode::kStepTooHigh) << MoveCodeName(blocked.code);
  EXPECT_LT(blocked.allowed_position.x, 5.0 + 1e-9);  // stopped at the riser (box front at x 20)
}

// Two steps of 12 along a wall (y <= -45), B beyond A in +x, reached from the
// floor beside them: a tick that set off towards the wall (onto A) and slid
// along it (up onto B) climbs 24 where the straight line meets both steps'
// sides at once. The body's last heading tells the path: towards the wall
// it is OK, along the wall it is too high.
TEST(WorldMovement, StairsFromTheSideFollowTheLastHeading) {
  const std::vector<Shape> level = {kFloor, Box({-100, -100, 0}, {20, -20, 12}),
                                    Box({20, -100, 0}, {100, -20, 24}),
                                    Box({-100, -200, 0}, {100, -45, 200})};
  const Vec3 from{0, 0, 24}, to{30, -30, 48};
  EXPECT_EQ(Move(Level(level, from), from, to, 0.12).code, MoveCode::kStepTooHigh);
  const World towards_wall = Level(level, from);
  ASSERT_EQ(Move(towards_wall, {0, 20, 24}, from, 0.05).code, MoveCode::kOk);
  const MoveVerdict up = Move(towards_wall, from, to, 0.12);
  EXPECT_EQ(up.code, MoveCode::kOk) << MoveCodeName(up.code);
  EXPECT_TRUE(up.grounded);
  const World along_wall = Level(level, from);
  ASSERT_EQ(Move(along_wall, {-20, 0, 24}, from, 0.05).code, MoveCode::kOk);
  EXPECT_EQ(Move(along_wall, from, to, 0.12).code, MoveCode::kStepTooHigh);
}

// Two steps of 11 (A from x 20, B from x 40) with a lintel over the start
// (x <= -12, 2 above the box's top): in 0.1 s (six game frames) the body
// walks to A's riser, steps up once clear of the lintel, and up B. Every
// lifted path (stairs, a jump) rises by the whole 22 at `from`, into the
// lintel; the walk of the game's frames climbs it.
TEST(WorldMovement, StairsUnderALintelAreWalkedFrameByFrame) {
  const std::vector<Shape> level = {kFloor, Box({20, -100, 0}, {40, 100, 11}),
                                    Box({40, -100, 0}, {300, 100, 22}),
                                    Box({-100, -100, 58}, {-12, 100, 200})};
  const World w = Level(level, {0, 0, 24});
  const MoveVerdict up = Move(w, {0, 0, 24}, {28, 0, 46}, 0.1);
  EXPECT_EQ(up.code, MoveCode::kOk) << MoveCodeName(up.code);
  EXPECT_TRUE(up.grounded);
}

// A plane through the origin rising along +x at `degrees`, as two triangles.
MeshData Ramp(double degrees) {
  const double k = std::tan(degrees * M_PI / 180.0);
  MeshData m;
  m.vertices = {{-300, -300, -300 * k}, {300, -300, 300 * k}, {300, 300, 300 * k}, {-300, 300, -300 * k}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

// The box origin resting on the ramp at x (its front bottom edge on it).
double OnRamp(double degrees, double x) { return (x + 15) * std::tan(degrees * M_PI / 180.0) + 24; }

TEST(WorldMovement, WalkableRampsAreWalkedSteepOnesAreTooSteep) {
  const World gentle = Level({}, {0, 0, OnRamp(30, 0)}, {Ramp(30)});
  const MoveVerdict walk = Move(gentle, {0, 0, OnRamp(30, 0)}, {20, 0, OnRamp(30, 20)}, 0.1);
  EXPECT_EQ(walk.code, MoveCode::kOk) << MoveCodeName(walk.code);
  EXPECT_TRUE(walk.grounded);
  const World steep = Level({}, {0, 0, OnRamp(60, 0)}, {Ramp(60)});
  const MoveVerdict climb = Move(steep, {0, 0, OnRamp(60, 0)}, {5, 0, OnRamp(60, 5)});
  EXPECT_EQ(climb.code, MoveCode::kTooSteep) << MoveCodeName(climb.code);
  EXPECT_FALSE(climb.grounded);
}

// A body running at 290 units/s through the air into a 60-degree ramp (too
// steep to stand on) ends its tick against it; the game clips its velocity
// on the ramp, turning horizontal speed into upward speed, so the next tick
// may rise off the ramp faster than its arc allows: the ramp under `from`
// restarts the arc as a slide, with up to half the speed it carried. The
// same rise with no ramp met is flying.
TEST(WorldMovement, ASteepSurfaceMetAtTheEndOfATickLaunchesTheNext) {
  constexpr double kTick48 = 0.048;
  const Vec3 against{-40, 0, OnRamp(60, -40) + 0.03125};
  const Vec3 run_from{-54, 0, against.z}, off{-44, 0, against.z + 4};
  const World w = Level({}, run_from, {Ramp(60)});
  const MoveVerdict hit = Move(w, run_from, against, kTick48);
  ASSERT_EQ(hit.code, MoveCode::kOk) << MoveCodeName(hit.code);
  ASSERT_FALSE(hit.grounded);
  const MoveVerdict launched = Move(w, against, off, kTick48);
  EXPECT_EQ(launched.code, MoveCode::kOk) << MoveCodeName(launched.code);
  // Far from the ramp: the same moves, 100 units back.
  const Vec3 back{-100, 0, 0};
  const World far = Level({}, run_from + back, {Ramp(60)});
  ASSERT_EQ(Move(far, run_from + back, against + back, kTick48).code, MoveCode::kOk);
  EXPECT_EQ(Move(far, against + back, off + back, kTick48).code, MoveCode::kFlying);
}

TEST(WorldMovement, StepsDownALedgeOntoTheGround) {
  const World w =
      Level({Box({-500, -100, -10}, {0, 100, 0}), Box({0, -100, -26}, {500, 100, -16})}, {-10, 0, 24});
  const MoveVerdict down = Move(w, {-10, 0, 24}, {20, 0, 8}, 0.1);
  EXPECT_EQ(down.code, MoveCode::kOk) << MoveCodeName(down.code);
  EXPECT_TRUE(down.grounded);
  EXPECT_EQ(down.allowed_position, (Vec3{20, 0, 8}));
}

// Quake's jump: vz = 270 at take-off, gravity 800, 5 units a tick forward.
double JumpZ(double t) { return 24 + 270 * t - 400 * t * t; }

TEST(WorldMovement, AJumpArcIsOkAndLandsGrounded) {
  const World w = Level({kFloor}, {0, 0, 24});
  int ticks = 0;
  for (double t = 0; JumpZ(t + kTick) > 24; t += kTick, ++ticks) {
    const MoveVerdict v =
        Move(w, {5 * t / kTick, 0, JumpZ(t)}, {5 * (t + kTick) / kTick, 0, JumpZ(t + kTick)});
    ASSERT_EQ(v.code, MoveCode::kOk) << "tick " << ticks << ": " << MoveCodeName(v.code);
    EXPECT_FALSE(v.grounded);
  }
  EXPECT_GT(ticks, 40);  // 0.675 s in the air
  const double t = ticks * kTick;
  const MoveVerdict land = Move(w, {5.0 * ticks, 0, JumpZ(t)}, {5.0 * (ticks + 1), 0, 24});
  EXPECT_EQ(land.code, MoveCode::kOk) << MoveCodeName(land.code);
  EXPECT_TRUE(land.grounded);
}

// A strafe jump: 5 units a tick on the take-off, 9 in the air (562 units/s),
// the landing and the ground after it at 9 decaying by the friction; a
// grounded body that never flew is held to its ground speed (413 units/s:
// 320 turning as it runs, plus the tolerance).
TEST(WorldMovement, ALandingKeepsItsSpeedDecayingOnTheGround) {
  const World w = Level({kFloor}, {0, 0, 24});
  double x = 0, t = 0;
  for (int tick = 0; JumpZ(t + kTick) > 24; ++tick, t += kTick) {
    const double step = tick == 0 ? 5 : 9;
    ASSERT_EQ(Move(w, {x, 0, JumpZ(t)}, {x + step, 0, JumpZ(t + kTick)}).code, MoveCode::kOk) << tick;
    x += step;
  }
  ASSERT_EQ(Move(w, {x, 0, JumpZ(t)}, {x + 9, 0, 24}).code, MoveCode::kOk);
  x += 9;
  double speed = 9;
  for (int tick = 0; tick < 8; ++tick, x += speed) {
    speed *= 1 - 6 * kTick;  // Quake's friction, faster than the bound's decay
    EXPECT_EQ(Move(w, {x, 0, 24}, {x + speed, 0, 24}).code, MoveCode::kOk) << tick;
  }
  const World fresh = Level({kFloor}, {0, 0, 24});
  EXPECT_EQ(Move(fresh, {0, 0, 24}, {9, 0, 24}).code, MoveCode::kTooFastHorizontal);
}

// Off a ledge into a pit and on at the same height: caught within 0.5 s.
TEST(WorldMovement, FlyingIsCaughtWithinHalfASecond) {
  const World w = Level({Box({-500, -100, -10}, {0, 100, 0})}, {-20, 0, 24});
  double caught_at = -1;
  for (int i = 0; i * kTick < 0.5 && caught_at < 0; ++i) {
    const MoveVerdict v = Move(w, {-20.0 + 5 * i, 0, 24}, {-15.0 + 5 * i, 0, 24});
    if (v.code == MoveCode::kFlying) caught_at = (i + 1) * kTick;
    if (v.code == MoveCode::kFlying) EXPECT_LT(v.allowed_position.z, 24);  // the arc falls
    ASSERT_TRUE(v.code == MoveCode::kOk || v.code == MoveCode::kFlying) << MoveCodeName(v.code);
  }
  EXPECT_GT(caught_at, 0);
}

// A wall (y <= 0) whose top edge at z 40 is bevelled at 45 degrees back to
// y -10 (MeshData: the bevel; with `bevel` off, a plain wall to 200).
std::vector<Shape> WallAt(bool bevel) {
  if (!bevel) return {kFloor, Box({-500, -100, -16}, {500, 0, 200})};
  return {kFloor, Box({-500, -100, -16}, {500, 0, 40}), Box({-500, -100, 50}, {500, -10, 200})};
}
MeshData Bevel() {
  MeshData m;
  m.vertices = {{-500, 0, 40}, {500, 0, 40}, {500, -10, 50}, {-500, -10, 50}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

// A 48 ms tick (three game frames) falling beside the wall, its feet a unit
// below the bevel's edge: pressing into the wall, the game steps the box up
// onto the bevel (PM_StepSlideMove in the air) and it jumps again within
// the tick, rising 8 where its arc falls. Under none of the boxes at from,
// the middle or `to`: only the walk of the game's frames finds the landing.
// Beside a plain wall the same moves are flying.
TEST(WorldMovement, AFallOntoABevelBesideTheBodyAndAJumpWithinATickAreOk) {
  constexpr double kTick48 = 0.048;
  const Vec3 p0{0, 15.03125, 63}, p1{17, p0.y, 63 - 0.92}, p2{34, p0.y, p1.z + 8};
  const World bevelled = Level(WallAt(true), p0, {Bevel()});
  ASSERT_EQ(Move(bevelled, p0, p1, kTick48).code, MoveCode::kOk);
  const MoveVerdict jump = Move(bevelled, p1, p2, kTick48);
  EXPECT_EQ(jump.code, MoveCode::kOk) << MoveCodeName(jump.code);
  const World plain = Level(WallAt(false), p0);
  ASSERT_EQ(Move(plain, p0, p1, kTick48).code, MoveCode::kOk);
  EXPECT_EQ(Move(plain, p1, p2, kTick48).code, MoveCode::kFlying);
}

// Hovering 48 ms ticks beside a ledge whose top is 6 above the box's feet:
// the walk steps onto the ledge, but from there `to`, 6 lower beside it, is
// more than a fall from rest in the time left: flying within 0.5 s.
TEST(WorldMovement, HoveringBesideALedgeWithinAStepIsFlying) {
  constexpr double kTick48 = 0.048;
  const World w = Level({kFloor, Box({-500, -100, -16}, {500, 0, 46})}, {0, 15.03125, 64});
  MoveCode code = MoveCode::kOk;
  for (int i = 0; i * kTick48 < 0.5 && code == MoveCode::kOk; ++i)
    code = Move(w, {17.0 * i, 15.03125, 64}, {17.0 * (i + 1), 15.03125, 64}, kTick48).code;
  EXPECT_EQ(code, MoveCode::kFlying) << MoveCodeName(code);
}

// Falling at twice gravity off the ledge is caught; at gravity it is not.
TEST(WorldMovement, FallingFasterThanGravityIsCaught) {
  for (const double g : {800.0, 1600.0}) {
    const World w = Level({Box({-500, -100, -10}, {0, 100, 0})}, {-20, 0, 24});
    MoveCode worst = MoveCode::kOk;
    for (int i = 0; i < 30 && worst == MoveCode::kOk; ++i) {
      const double t0 = i * kTick, t1 = t0 + kTick;
      // Off the ledge at x = 15 (the box clears it): level until then.
      const auto z = [&](double t) { return 24 - 0.5 * g * std::max(0.0, t - 0.1) * std::max(0.0, t - 0.1); };
      const MoveVerdict v = Move(w, {-20.0 + 5 * i, 0, z(t0)}, {-15.0 + 5 * i, 0, z(t1)});
      worst = v.code;
    }
    if (g == 800.0) EXPECT_EQ(worst, MoveCode::kOk) << MoveCodeName(worst);
    if (g == 1600.0) EXPECT_EQ(worst, MoveCode::kTooFastVertical) << MoveCodeName(worst);
  }
}

TEST(WorldMovement, CrouchingPassesUnderALowCeilingAtCrouchSpeed) {
  const std::vector<Shape> level = {kFloor, Box({20, -100, 45}, {200, 100, 60})};
  const World w = Level(level, {0, 0, 24});
  EXPECT_EQ(Move(w, {0, 0, 24}, {8, 0, 24}, 0.1, 0).code, MoveCode::kBlocked);  // top at 56
  EXPECT_EQ(Move(w, {0, 0, 24}, {8, 0, 24}, 0.1, 1).code, MoveCode::kOk);       // top at 40
  // 160 > 80 x sqrt(10 / 6) + tolerance, for a body that was not standing before.
  EXPECT_EQ(Move(Level(level, {0, 0, 24}), {0, 0, 24}, {16, 0, 24}, 0.1, 1).code,
            MoveCode::kTooFastHorizontal);
  EXPECT_EQ(Move(w, {0, 0, 24}, {8, 0, 24}, 0.1, 2).code, MoveCode::kInvalid);  // no third stance
}

// Crouching while running at 320: the move the stance changed in may go at
// the run speed, then the speed decays towards the crouched speed by the
// friction bound; a body crouched all along is held to its crouched speed.
TEST(WorldMovement, ACrouchWithinATickKeepsTheRunSpeedDecaying) {
  const World w = Level({kFloor}, {0, 0, 24});
  double x = 0;
  for (int tick = 0; tick < 5; ++tick, x += 5)
    ASSERT_EQ(Move(w, {x, 0, 24}, {x + 5, 0, 24}).code, MoveCode::kOk);
  double speed = 5;
  for (int tick = 0; tick < 10; ++tick, x += speed) {
    speed *= 1 - 6 * kTick;  // Quake's friction
    EXPECT_EQ(Move(w, {x, 0, 24}, {x + speed, 0, 24}, kTick, 1).code, MoveCode::kOk) << tick;
  }
  const World crouched = Level({kFloor}, {0, 0, 24});
  EXPECT_EQ(Move(crouched, {0, 0, 24}, {2, 0, 24}, kTick, 1).code, MoveCode::kOk);
  EXPECT_EQ(Move(crouched, {2, 0, 24}, {6, 0, 24}, kTick, 1).code,
            MoveCode::kTooFastHorizontal);  // 250 units/s
}

TEST(WorldMovement, WithoutAModelMovesAreStraightSweeps) {
  WorldSettings settings;
  World w(settings, {{1, kAllCategories, kFloor}, {2, kAllCategories, Box({20, -100, 0}, {200, 100, 16})}});
  Frame f{1,
          {{kPlayer,
            Pose{{0, 0, 24}, {}},
            {{0, Sphere{{0, 0, 0}, 10}, {}}},
            {},
            Shape{Aabb{{-15, -15, -24}, {15, 15, 32}}},
            std::nullopt,
            false}},
          {}};
  ASSERT_TRUE(w.PushFrame(f).ok());
  MoveRequest m{kPlayer, Vec3{0, 0, 24}, {24, 0, 40}, 0.1, 1000.0};
  EXPECT_EQ(w.ValidateMoves(std::span(&m, 1)).front().code, MoveCode::kBlocked);  // no step-up
  m.movement = MovementModel::Quake();                                            // the model for one move
  EXPECT_EQ(w.ValidateMoves(std::span(&m, 1)).front().code, MoveCode::kOk);
}

TEST(WorldMovement, PresetsAreValidAndBadModelsAreNamed) {
  std::vector<Violation> out;
  for (const MovementModel& m : {MovementModel::Quake(), MovementModel::Source(), MovementModel::Unreal()}) {
    EXPECT_TRUE(ValidateMovementModel(m, "movement", out));
  }
  MovementModel bad = MovementModel::Quake();
  bad.gravity = 0;
  bad.stances.clear();
  EXPECT_FALSE(ValidateMovementModel(bad, "movement", out));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].field, "movement.stances");
  EXPECT_EQ(out[1].field, "movement.gravity");
}

}  // namespace
}  // namespace collide
