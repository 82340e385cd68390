// Melee verdicts on analytic cases: an arc in reach, out of reach and at
// its edges, a wall and a body between the eye and the target, a capsule
// swept in the attacker's frame, and the policy codes.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "collide/melee.h"

namespace collide {
namespace {

enum : std::int64_t { kAttacker = 1, kTarget = 2, kOther = 3, kWall = 100 };
enum : std::int32_t { kBall = 1, kFoot = 2 };
constexpr double kEyeZ = 1.6;

BodyUpdate Body(std::int64_t id, const Vec3& position, double radius = 0.3) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{position, {}};
  u.eye = Vec3{0, 0, kEyeZ};
  // A ball at eye height and a foot far below the arc's plane.
  u.parts = {{kBall, Sphere{{0, 0, kEyeZ}, radius}, {}}, {kFoot, Sphere{{0, 0, -5}, 0.1}, {}}};
  return u;
}

// The target at `target`, the other body at `other` (far away by default),
// a wall at x = 1 (|y| < 0.5) when `wall`.
World MakeWorld(const Vec3& target, const Vec3& other = {0, 50, 0}, bool wall = false,
                const Quat& attacker_rotation = {}) {
  std::vector<StaticElement> statics;
  if (wall) statics.push_back({kWall, kAllCategories, Shape{Aabb{{1, -0.5, 0}, {1.05, 0.5, 3}}}});
  WorldSettings settings;
  settings.max_rewind_ticks = 4;
  World world(settings, std::move(statics));
  BodyUpdate attacker = Body(kAttacker, {});
  attacker.pose->rotation = attacker_rotation;
  EXPECT_TRUE(world.PushFrame({0, {attacker, Body(kTarget, target), Body(kOther, other, 0.35)}, {}}).ok());
  for (int tick = 1; tick <= 10; ++tick) EXPECT_TRUE(world.PushFrame({tick, {}, {}}).ok());
  return world;
}

MeleeRequest Arc(double radius, double angle_degrees,
                 std::optional<ShotClaim> claim = ShotClaim{kTarget, kBall}) {
  MeleeRequest m;
  m.attacker = kAttacker;
  m.at = Time{8, 0.0};
  m.reach = MeleeArc{{1, 0, 0}, {0, 0, 1}, radius, angle_degrees * std::numbers::pi / 180};
  m.claim = claim;
  return m;
}

MeleeVerdict One(const World& world, const MeleeRequest& m) {
  return world.ValidateMelee(std::vector<MeleeRequest>{m}).front();
}

Vec3 AtAngle(double distance, double degrees) {
  const double a = degrees * std::numbers::pi / 180;
  return {distance * std::cos(a), distance * std::sin(a), 0};
}

TEST(MeleeTest, ArcInReachOutOfReachAndAtItsEdges) {
  const MeleeVerdict in = One(MakeWorld({1.5, 0, 0}), Arc(2, 90));
  ASSERT_EQ(in.code, ShotCode::kConfirmed);
  ASSERT_EQ(in.hits.size(), 1u);
  EXPECT_EQ(in.hits[0].target, (HitTarget{HitTarget::Kind::kBody, kTarget, 0, kBall}));
  EXPECT_EQ(in.eye, (Vec3{0, 0, kEyeZ}));
  // 2.5 away, ball radius 0.3: 0.2 beyond the reach, less the fan's
  // overreach at a triangle's corner (under 0.1 % of the radius).
  const MeleeVerdict out = One(MakeWorld({2.5, 0, 0}), Arc(2, 90));
  ASSERT_EQ(out.code, ShotCode::kMissed);
  EXPECT_GE(out.claim_miss_distance, 0.2 - 2 * (1 / std::cos(std::numbers::pi / 72) - 1));
  EXPECT_LE(out.claim_miss_distance, 0.2 + 1e-9);
  // With a tolerance of 0.25 the claimed ball counts.
  MeleeRequest tolerant = Arc(2, 90);
  tolerant.tolerance = 0.25;
  EXPECT_EQ(One(MakeWorld({2.5, 0, 0}), tolerant).code, ShotCode::kConfirmed);
  // The sector's edge at 45 degrees: a ball of 0.3 at 1.5 is reached at 55
  // degrees (1.5 sin 10 = 0.26 from the edge) and not at 60 (0.39).
  EXPECT_EQ(One(MakeWorld(AtAngle(1.5, 55)), Arc(2, 90)).code, ShotCode::kConfirmed);
  EXPECT_EQ(One(MakeWorld(AtAngle(1.5, -55)), Arc(2, 90)).code, ShotCode::kConfirmed);
  EXPECT_EQ(One(MakeWorld(AtAngle(1.5, 60)), Arc(2, 90)).code, ShotCode::kMissed);
  EXPECT_EQ(One(MakeWorld(AtAngle(1.5, 179)), Arc(2, 360)).code, ShotCode::kConfirmed);
  // Above the arc's plane by more than the ball's radius.
  EXPECT_EQ(One(MakeWorld({1.5, 0, 0.31}), Arc(2, 90)).code, ShotCode::kMissed);
  EXPECT_EQ(One(MakeWorld({1.5, 0, 0.29}), Arc(2, 90)).code, ShotCode::kConfirmed);
}

TEST(MeleeTest, AWallOrABodyBetweenTheEyeAndTheTargetBlocks) {
  const MeleeVerdict wall = One(MakeWorld({1.5, 0, 0}, {0, 50, 0}, true), Arc(2, 90));
  ASSERT_EQ(wall.code, ShotCode::kBlocked);
  ASSERT_TRUE(wall.blocker);
  EXPECT_EQ(wall.blocker->target.kind, HitTarget::Kind::kStatic);
  EXPECT_EQ(wall.blocker->target.id, kWall);
  EXPECT_TRUE(wall.hits.empty());
  // Beside the wall the line is clear.
  EXPECT_EQ(One(MakeWorld(AtAngle(1.5, 40), {0, 50, 0}, true), Arc(2, 90)).code, ShotCode::kConfirmed);
  // Another body in front: it is reached itself, and blocks the line.
  const MeleeVerdict body = One(MakeWorld({1.7, 0, 0}, {0.8, 0, 0}), Arc(2, 20));
  ASSERT_EQ(body.code, ShotCode::kHitOtherBody);
  EXPECT_EQ(body.blocker->target.id, kOther);
  ASSERT_EQ(body.hits.size(), 1u);
  EXPECT_EQ(body.hits[0].target.id, kOther);
  // Without a claim: every body reached with a clear line.
  const MeleeVerdict all = One(MakeWorld({1.5, 0.5, 0}, {1.5, -0.5, 0}), Arc(2, 90, std::nullopt));
  ASSERT_EQ(all.code, ShotCode::kConfirmed);
  EXPECT_EQ(all.hits.size(), 2u);
}

TEST(MeleeTest, ACapsuleSweptInTheAttackersFrame) {
  MeleeRequest m;
  m.attacker = kAttacker;
  m.at = Time{8, 0.0};
  // A blade from the shoulder swung from the right to the left.
  m.reach = MeleeSweep{Capsule{{0, 0, kEyeZ}, {1.5, -1, kEyeZ}, 0.05},
                       Capsule{{0, 0, kEyeZ}, {1.5, 1, kEyeZ}, 0.05}};
  m.claim = ShotClaim{kTarget, kBall};
  EXPECT_EQ(One(MakeWorld({1.2, 0, 0}), m).code, ShotCode::kConfirmed);
  // Over the blade: 0.45 between the ball and the swept blade.
  const MeleeVerdict above = One(MakeWorld({1.2, 0, 0.8}), m);
  EXPECT_EQ(above.code, ShotCode::kMissed);
  EXPECT_NEAR(above.claim_miss_distance, 0.45, 1e-6);
  // Behind the attacker, unless the attacker faces there (turned by 180
  // degrees about z: the swing turns with it).
  EXPECT_EQ(One(MakeWorld({-1.2, 0, 0}), m).code, ShotCode::kMissed);
  EXPECT_EQ(One(MakeWorld({-1.2, 0, 0}, {0, 50, 0}, false, Quat{0, 0, 0, 1}), m).code, ShotCode::kConfirmed);
}

TEST(MeleeTest, PolicyCodesAndInvalidFields) {
  const World world = MakeWorld({1.5, 0, 0});
  MeleeRequest m = Arc(2, 90);
  m.at = Time{11, 0.0};
  EXPECT_EQ(One(world, m).code, ShotCode::kInTheFuture);
  m.at = Time{2, 0.0};
  EXPECT_EQ(One(world, m).code, ShotCode::kRewindTooOld);
  m.at = Time{8, 0.0};
  m.attacker = 99;
  EXPECT_EQ(One(world, m).code, ShotCode::kUnknownShooter);
  m.attacker = kAttacker;
  m.claim = ShotClaim{kTarget, 42};
  EXPECT_EQ(One(world, m).code, ShotCode::kUnknownTarget);
  m.claim = ShotClaim{kAttacker, kBall};
  m.reach = MeleeArc{{0, 0, 2}, {0, 0, 1}, 0, 7};
  m.tolerance = -1;
  const MeleeVerdict bad = One(world, m);
  ASSERT_EQ(bad.code, ShotCode::kInvalid);
  std::vector<std::string> fields;
  for (const Violation& v : bad.problems) fields.push_back(v.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"arc.direction", "arc.radius", "arc.angle", "tolerance",
                                              "claim.body"}));
  m.reach = MeleeSweep{Capsule{{0, 0, 0}, {1, 0, 0}, 0.1}, Capsule{{0, 0, 0}, {1, 0, 0}, 0.2}};
  m.tolerance = 0;
  m.claim = std::nullopt;
  const MeleeVerdict radii = One(world, m);
  ASSERT_EQ(radii.code, ShotCode::kInvalid);
  EXPECT_EQ(radii.problems.at(0).field, "sweep.to.radius");
}

}  // namespace
}  // namespace collide
