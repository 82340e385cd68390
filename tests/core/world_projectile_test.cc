// Projectile verdicts on analytic cases: free flights against the closed
// form (with and without drag), bounces on a floor of many triangles (the
// apex height decays by e^2 per bounce), a fast projectile against a thin
// body crossing its path between two 8 Hz frames, the origin against the
// shooter's eye, and every code.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "collide/melee.h"
#include "collide/projectile.h"
#include "collide/query.h"
#include "collide/sweep.h"

namespace collide {
namespace {

constexpr double kTick = 1.0 / 64.0;
enum : std::int64_t { kShooter = 1, kTarget = 2, kOther = 3, kWall = 100, kFloor = 101 };
enum : std::int32_t { kHead = 1, kChest = 2 };

// The task's closed form (dv/dt = g - k v): p0 + (v0 - g/k)(1 - e^{-kt})/k
// + g t / k, and p0 + v0 t + g t^2 / 2 for k = 0.
Vec3 Expected(const Vec3& p0, const Vec3& v0, const Vec3& g, double k, double t) {
  if (k == 0.0) return p0 + v0 * t + g * (t * t / 2.0);
  return p0 + (v0 - g / k) * ((1.0 - std::exp(-k * t)) / k) + g * (t / k);
}

std::shared_ptr<const TriangleMesh> Floor() {
  MeshData m;
  const int n = 40;  // 5 x 5 squares over [-100, 100]^2: many internal edges.
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) m.vertices.push_back({-100.0 + 5 * i, -100.0 + 5 * j, 0.0});
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const auto v = static_cast<std::uint32_t>(j * (n + 1) + i);
      m.triangles.push_back({v, v + 1, v + n + 2});
      m.triangles.push_back({v, v + n + 2, v + n + 1});
    }
  }
  return std::make_shared<const TriangleMesh>(std::move(m));
}

BodyUpdate Body(std::int64_t id, const Vec3& position) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{position, {}};
  u.parts = {{kHead, Sphere{{0, 0, 1.7}, 0.15}, {}},
             {kChest, Aabb{{-0.2, -0.25, 0.9}, {0.2, 0.25, 1.5}}, {}}};
  return u;
}

// The flights below launch anywhere in the world: an origin offset no
// launch reaches (the origin check has its own test).
constexpr double kAnyOrigin = 1e9;

// Ticks 0..frames-1; the shooter at the origin, the target at x = 10 and
// the other body at x = 5, y = 3 (out of the line) unless moved.
World MakeWorld(int frames, std::vector<StaticElement> statics = {}) {
  WorldSettings settings;
  settings.history_ticks = frames;
  settings.max_rewind_ticks = frames;
  settings.max_origin_offset = kAnyOrigin;
  World world(settings, std::move(statics));
  for (int tick = 0; tick < frames; ++tick) {
    Frame f{tick, {}, {}};
    if (tick == 0) {
      f.bodies = {Body(kShooter, {0, 0, 0}), Body(kTarget, {10, 0, 0}), Body(kOther, {5, 3, 0})};
    }
    EXPECT_TRUE(world.PushFrame(f).ok());
  }
  return world;
}

ProjectileRequest Launch(const Vec3& origin, const Vec3& velocity, std::int64_t tick) {
  ProjectileRequest p;
  p.shooter = kShooter;
  p.at = Time{tick, 0.0};
  p.origin = origin;
  p.velocity = velocity;
  p.time_limit = 1.0;
  p.tick_seconds = kTick;
  return p;
}

ProjectileVerdict One(const World& world, const ProjectileRequest& p) {
  return world.ValidateProjectiles(std::vector<ProjectileRequest>{p}).front();
}

TEST(ProjectileTest, FreeFlightEndsOnTheClosedFormWithAndWithoutDrag) {
  const World world = MakeWorld(200);
  for (const double k : {0.0, 1e-3, 0.5, 3.0}) {
    ProjectileRequest p = Launch({0, -50, 1}, {30, 0, 20}, 100);
    p.gravity = {0, 0, -9.81};
    p.drag = k;
    const ProjectileVerdict v = One(world, p);
    ASSERT_EQ(v.code, ProjectileCode::kMissed) << k;
    EXPECT_EQ(v.seconds, 1.0);
    EXPECT_EQ(v.end_at, (Time{164, 0.0}));
    const Vec3 want = Expected(p.origin, p.velocity, p.gravity, k, 1.0);
    EXPECT_LT(Length(v.position - want), 1e-9 * (1 + Length(want))) << k;
    // The velocity is the position's derivative.
    const double h = 1e-5;
    const Vec3 slope = (Expected(p.origin, p.velocity, p.gravity, k, 1.0 + h) -
                        Expected(p.origin, p.velocity, p.gravity, k, 1.0 - h)) /
                       (2 * h);
    EXPECT_LT(Length(v.velocity - slope), 1e-5) << k;
  }
}

TEST(ProjectileTest, InFlightAtTheLatestFrame) {
  const World world = MakeWorld(200);
  ProjectileRequest p = Launch({0, -50, 1}, {30, 0, 20}, 190);
  p.gravity = {0, 0, -9.81};
  const ProjectileVerdict v = One(world, p);
  ASSERT_EQ(v.code, ProjectileCode::kInFlight);
  EXPECT_DOUBLE_EQ(v.seconds, 9 * kTick);
  EXPECT_EQ(v.end_at, (Time{199, 0.0}));
  EXPECT_LT(Length(v.position - Expected(p.origin, p.velocity, p.gravity, 0, 9 * kTick)), 1e-9);
  // Launched at the latest frame: judged over no time at all.
  p.at = Time{199, 0.0};
  const ProjectileVerdict now = One(world, p);
  EXPECT_EQ(now.code, ProjectileCode::kInFlight);
  EXPECT_EQ(now.seconds, 0.0);
  EXPECT_EQ(now.position, p.origin);
}

TEST(ProjectileTest, FloorBouncesReflectAndTheApexDecaysByESquared) {
  const World world = MakeWorld(640, {{kFloor, kAllCategories, Floor()}});
  const double e = 0.7, g = 9.81, r = 0.1;
  ProjectileRequest p = Launch({-20, 0.3, 10}, {2, 0, 0}, 0);
  p.gravity = {0, 0, -g};
  p.radius = r;
  p.restitution = e;
  p.max_bounces = 4;
  p.time_limit = 9.0;
  // A tight chord tolerance (about 10,000 sub-steps) so that the bounces
  // are nearly exact; the contract below holds for any.
  p.chord_tolerance = 1e-6;
  const ProjectileVerdict v = One(world, p);
  ASSERT_EQ(v.code, ProjectileCode::kBlocked);
  ASSERT_EQ(v.bounces.size(), 4u);
  ASSERT_TRUE(v.hit);
  EXPECT_EQ(v.hit->target.kind, HitTarget::Kind::kStatic);
  EXPECT_EQ(v.hit->target.id, kFloor);
  // The first contact: the sphere (grown by the chord tolerance) reaches
  // the floor after falling 10 - r - tol.
  const double contact_z = r + p.chord_tolerance;
  EXPECT_NEAR(v.bounces[0].seconds, std::sqrt(2 * (10 - contact_z) / g), 1e-6);
  std::vector<double> times;
  for (const ProjectileContact& c : v.bounces) times.push_back(c.seconds);
  times.push_back(v.hit->seconds);
  for (std::size_t i = 0; i < v.bounces.size(); ++i) {
    const ProjectileContact& c = v.bounces[i];
    EXPECT_NEAR(c.position.z, contact_z, 1e-9) << i;
    EXPECT_NEAR(c.position.x, -20 + 2 * c.seconds, 1e-9) << i;  // tangential speed kept.
    EXPECT_NEAR(std::fabs(c.normal.z), 1.0, 1e-12) << i;
  }
  // Between bounces the flight is a parabola of duration 2 v / g and apex
  // height g d^2 / 8: each apex is e^2 of the one before (the first flight
  // after a fall from the apex of height 10 - contact_z).
  double apex = 10 - contact_z;
  for (std::size_t i = 0; i + 1 < times.size(); ++i) {
    const double d = times[i + 1] - times[i];
    const double next = g * d * d / 8;
    EXPECT_NEAR(next / apex, e * e, 1e-4) << i;
    apex = next;
  }
}

TEST(ProjectileTest, TheFirstContactIsNoLaterThanTheCurvesAndWithinTheContract) {
  // The default tolerance: chords of up to 0.09 s, 0.01 below the curve.
  const World world = MakeWorld(200, {{kFloor, kAllCategories, Floor()}});
  for (const double speed : {0.0, 3.0, 30.0}) {
    ProjectileRequest p = Launch({0, 0, 10}, {speed, 0, 0}, 0);
    p.gravity = {0, 0, -9.81};
    p.radius = 0.1;
    p.time_limit = 2.0;
    const ProjectileVerdict v = One(world, p);
    ASSERT_EQ(v.code, ProjectileCode::kBlocked);
    const double t = v.hit->seconds, truth = std::sqrt(2 * (10 - p.radius) / 9.81);
    EXPECT_LE(t, truth);
    const double z = Expected(p.origin, p.velocity, p.gravity, 0, t).z;
    EXPECT_LE(z, p.radius + 2 * p.chord_tolerance);
  }
}

TEST(ProjectileTest, FastProjectileHitsAThinBodyCrossingBetweenTwo8HzFrames) {
  // 8 Hz: one tick is 0.125 s; the body's 0.1-thick plate crosses the line
  // y = 0 at 40 units per tick, the projectile flies 10,000 units/s.
  WorldSettings settings;
  World world(settings, {});
  BodyUpdate plate;
  plate.id = kTarget;
  plate.pose = Pose{{500, -20, 0}, {}};
  plate.parts = {{kChest, Obb{{0, 0, 0}, {}, {0.05, 1, 1}}, {}}};
  BodyUpdate shooter = Body(kShooter, {0, 0, -10});
  shooter.eye = Vec3{0, 0, 10};  // the launch point.
  ASSERT_TRUE(world.PushFrame({10, {plate, shooter}, {}}).ok());
  BodyUpdate moved;
  moved.id = kTarget;
  moved.pose = Pose{{500, 20, 0}, {}};
  ASSERT_TRUE(world.PushFrame({11, {moved}, {}}).ok());
  ProjectileRequest p;
  p.shooter = kShooter;
  p.velocity = {10000, 0, 0};
  p.time_limit = 1.0;
  p.tick_seconds = 0.125;
  p.claim = ShotClaim{kTarget, kChest};
  // Reaching x = 500 0.05 s after launch: launched at 10.1 it meets the
  // plate at 10.5, at y = 0; launched at 10.3, at y = 16: it passes behind.
  p.at = Time{10, 0.1};
  const ProjectileVerdict hit = One(world, p);
  ASSERT_EQ(hit.code, ProjectileCode::kConfirmed);
  // Bodies see the sphere grown by two chord tolerances (the chord's and
  // the turn allowance, collide/projectile.h).
  EXPECT_NEAR(hit.hit->seconds, (500 - 0.05 - 2 * p.chord_tolerance) / 10000, 1e-12);
  EXPECT_NEAR(hit.hit->point.x, 499.95, 1e-9);
  EXPECT_EQ(hit.hit->at.tick, 10);
  EXPECT_NEAR(hit.hit->at.fraction, 0.1 + hit.hit->seconds / 0.125, 1e-9);
  p.at = Time{10, 0.3};
  const ProjectileVerdict miss = One(world, p);
  EXPECT_EQ(miss.code, ProjectileCode::kInFlight);
  EXPECT_FALSE(miss.hit);
}

// A blade 5 to 21 units from its body's axis, turning 60 degrees per 8 Hz tick:
// the part's frame turns within a sub-step, and the verdict still finds
// every contact a fine reference finds (the body placed by the world at
// each of 4,000 steps a tick, the sphere swept against it), no later, and
// within the contract.
// A blade spinning a sixth of a turn per 8 Hz tick, the body turning and
// (when `animated`) half of it the part's own local pose, so that each
// sub-step is cut into pieces between blended part poses: projectiles
// across its circle, against a reference of 4,000 steps per tick with the
// blade as the world places it at each step.
void ExpectSpinningBladeHits(bool animated) {
  constexpr double kTick8 = 0.125;
  WorldSettings settings;
  settings.history_ticks = 16;
  settings.max_rewind_ticks = 16;
  settings.max_origin_offset = kAnyOrigin;
  World world(settings, {});
  for (int tick = 0; tick < 12; ++tick) {
    const double yaw = tick * std::numbers::pi / 3, body_yaw = animated ? yaw / 2 : yaw;
    BodyUpdate u;
    u.id = kTarget;
    u.pose = Pose{{0, 0, 0}, {std::cos(body_yaw / 2), 0, 0, std::sin(body_yaw / 2)}};
    if (tick == 0) u.parts = {{kChest, Obb{{13, 0, 0}, {}, {8, 0.05, 1}}, {}}};
    if (animated) {
      const double part_yaw = yaw - body_yaw;
      u.part_poses = {{kChest, Pose{{0, 0, 0}, {std::cos(part_yaw / 2), 0, 0, std::sin(part_yaw / 2)}}}};
    }
    Frame f{tick, {u}, {}};
    if (tick == 0) f.bodies.push_back(Body(kShooter, {0, 0, -50}));
    ASSERT_TRUE(world.PushFrame(f).ok());
  }
  int hits = 0;
  for (int c = 0; c < 40; ++c) {
    // Across the blade's circle at x = 20 * cos(phase), downwards in y.
    const double phase = c * 0.157;
    ProjectileRequest p;
    p.shooter = kShooter;
    p.at = Time{2, (c % 8) / 8.0};
    p.origin = {20 * std::cos(phase), 25, 0.5};
    p.velocity = {0, -60, 0};
    p.radius = c % 2 == 0 ? 0.0 : 0.2;
    p.time_limit = 0.8;
    p.tick_seconds = kTick8;
    const ProjectileVerdict v = One(world, p);
    // The reference: the blade as the world places it at each step's start.
    const double launch = 2 + p.at->fraction, steps_per_tick = 4000;
    double reference = -1;
    for (int k = 0; reference < 0 && k < 0.8 / kTick8 * steps_per_tick; ++k) {
      const double t0 = k * kTick8 / steps_per_tick, t1 = (k + 1) * kTick8 / steps_per_tick;
      const double ticks = launch + t0 / kTick8;
      const Time at{static_cast<std::int64_t>(ticks), ticks - std::floor(ticks)};
      const Vec3 a = p.origin + p.velocity * t0, b = p.origin + p.velocity * t1;
      const Shape moving = p.radius > 0 ? Shape{Sphere{a, p.radius}} : Shape{Point{a}};
      for (const auto& [id, shape] : world.BodyPartsAt(kTarget, at)) {
        const SweepResult s = ShapeCast(moving, b - a, shape);
        if (s.hit) reference = t0 + s.t * (t1 - t0);
      }
    }
    if (reference < 0) continue;
    ++hits;
    ASSERT_TRUE(v.hit) << "tunnelled: case " << c << " reference " << reference;
    EXPECT_LE(v.hit->seconds, reference + 1e-4) << c;
    const double ticks = launch + v.hit->seconds / kTick8;
    const Time at{static_cast<std::int64_t>(ticks), ticks - std::floor(ticks)};
    const Vec3 truth = p.origin + p.velocity * v.hit->seconds;
    EXPECT_LE(Distance(Point{truth}, world.BodyPartsAt(kTarget, at).front().second).distance,
              p.radius + 3 * p.chord_tolerance + 1e-3)
        << c;
  }
  EXPECT_GE(hits, 10);
}

TEST(ProjectileTest, ASpinningBladeIsNotTunnelledThrough) { ExpectSpinningBladeHits(false); }

TEST(ProjectileTest, ABladeSpinningOnItsOwnPartPoseIsNotTunnelledThrough) { ExpectSpinningBladeHits(true); }

TEST(ProjectileTest, ClaimsAreJudgedLikeShots) {
  MeshData wall;
  wall.vertices = {{7, -10, -1}, {7, 10, -1}, {7, 10, 3}, {7, -10, 3}};
  wall.triangles = {{0, 1, 2}, {0, 2, 3}};
  World world = MakeWorld(40, {{kWall, 2, std::make_shared<const TriangleMesh>(std::move(wall))}});
  const auto shot = [&](const Vec3& aim, ShotClaim claim, CategoryMask mask = 1) {
    ProjectileRequest p = Launch({0, 0, 1.7}, aim * 100.0, 20);
    p.claim = claim;
    p.mask = mask;  // the wall has category 2: seen only with bit 2.
    return One(world, p);
  };
  EXPECT_EQ(shot({1, 0, 0}, {kTarget, kHead}).code, ProjectileCode::kConfirmed);
  const ProjectileVerdict other_part = shot({1, 0, -0.05}, {kTarget, kHead});
  EXPECT_EQ(other_part.code, ProjectileCode::kHitOtherPart);
  EXPECT_EQ(other_part.hit->target.part, kChest);
  EXPECT_EQ(shot({1, 0, 0}, {kTarget, kHead}, 3).code, ProjectileCode::kBlocked);
  EXPECT_EQ(shot({1, 0, 0}, {kOther, kHead}).code, ProjectileCode::kHitOtherBody);
  // 19 ticks before the latest frame (39): 0.3 s are judged.
  const ProjectileVerdict in_flight = shot({0, 1, 0}, {kTarget, kHead});
  EXPECT_EQ(in_flight.code, ProjectileCode::kInFlight);
  EXPECT_NEAR(Length(in_flight.position - Vec3{0, 100 * 19 * kTick, 1.7}), 0, 1e-9);
  // Launched inside the shooter's own head: never hits it.
  ProjectileRequest own = Launch({0, 0, 1.7}, {0, -100, 0}, 20);
  own.time_limit = 0.25;
  const ProjectileVerdict missed = One(world, own);
  EXPECT_EQ(missed.code, ProjectileCode::kMissed);
  EXPECT_NEAR(Length(missed.position - Vec3{0, -25, 1.7}), 0, 1e-9);
  // The policy and the request.
  ProjectileRequest p = Launch({0, 0, 1.7}, {100, 0, 0}, 40);
  EXPECT_EQ(One(world, p).code, ProjectileCode::kInTheFuture);
  p.at = Time{39, 0.5};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kInTheFuture);
  p.at = Time{0, 0.0};
  WorldSettings strict;
  strict.max_rewind_ticks = 4;
  World strict_world(strict, {});
  ASSERT_TRUE(strict_world.PushFrame({0, {Body(kShooter, {})}, {}}).ok());
  ASSERT_TRUE(strict_world.PushFrame({10, {}, {}}).ok());
  EXPECT_EQ(One(strict_world, p).code, ProjectileCode::kRewindTooOld);
  p.at = Time{20, 0.0};
  p.shooter = 99;
  EXPECT_EQ(One(world, p).code, ProjectileCode::kUnknownShooter);
  p.shooter = kShooter;
  p.claim = ShotClaim{kTarget, 42};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kUnknownTarget);
  p.claim = ShotClaim{kShooter, kHead};
  p.velocity.x = std::nan("");
  p.tick_seconds = 0.0;
  p.restitution = 2.0;
  p.max_bounces = 65;
  const ProjectileVerdict bad = One(world, p);
  ASSERT_EQ(bad.code, ProjectileCode::kInvalid);
  std::vector<std::string> fields;
  for (const Violation& v : bad.problems) fields.push_back(v.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"velocity", "restitution", "max_bounces", "tick_seconds",
                                              "claim.body"}));
}

// Ticks 0..19 at 64 Hz under the default policy (max_origin_offset 2): the
// shooter runs +x 0.5 a tick, its eye 1.6 up, and with `teleport` jumps to
// y = 10 at tick 12; the target stands at x = 20.
constexpr double kRunStep = 0.5;
World RunnerWorld(bool teleport) {
  WorldSettings settings;
  settings.history_ticks = 32;
  settings.max_rewind_ticks = 32;
  World world(settings, {});
  for (int tick = 0; tick < 20; ++tick) {
    BodyUpdate runner = Body(kShooter, {kRunStep * tick, teleport && tick >= 12 ? 10.0 : 0.0, 0});
    runner.eye = Vec3{0, 0, 1.6};
    runner.teleport = teleport && tick == 12;
    Frame f{tick, {runner}, {}};
    if (tick == 0) f.bodies.push_back(Body(kTarget, {20, 0, 0}));
    EXPECT_TRUE(world.PushFrame(f).ok());
  }
  return world;
}

// Launched at tick 10 from `origin` at the target's head, the command at
// tick 12 (the eye at x = 6).
ProjectileRequest Thrown(const Vec3& origin) {
  ProjectileRequest p = Launch(origin, NormalizedOr(Vec3{20, 0, 1.7} - origin, Vec3{1, 0, 0}) * 100.0, 10);
  p.command_at = Time{12, 0.0};
  p.claim = ShotClaim{kTarget, kHead};
  return p;
}

TEST(ProjectileTest, TheOriginIsCheckedAgainstTheShootersEyeAsAShotsIs) {
  World world = RunnerWorld(false);
  const Vec3 eye{6, 0, 1.6};
  // From the eye at the command's tick: judged; the allowance is 2 and the
  // eye's half a unit over the tick before.
  ProjectileVerdict v = One(world, Thrown(eye));
  EXPECT_EQ(v.code, ProjectileCode::kConfirmed) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, 0.0, 1e-12);
  EXPECT_NEAR(v.origin_allowance, 2 + kRunStep, 1e-12);
  // 2.3 off: beyond max_origin_offset, within it and the run.
  v = One(world, Thrown(eye + Vec3{0, 2.3, 0}));
  EXPECT_EQ(v.code, ProjectileCode::kConfirmed) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, 2.3, 1e-12);
  // 2.7 off: implausible, with the launch time, offset and allowance, and
  // no flight.
  v = One(world, Thrown(eye + Vec3{0, 2.7, 0}));
  EXPECT_EQ(v.code, ProjectileCode::kOriginImplausible) << ProjectileCodeName(v.code);
  EXPECT_EQ(v.time.used, (Time{10, 0.0}));
  EXPECT_NEAR(v.origin_offset, 2.7, 1e-12);
  EXPECT_NEAR(v.origin_allowance, 2 + kRunStep, 1e-12);
  EXPECT_FALSE(v.hit);
  EXPECT_EQ(v.seconds, 0.0);
  // The origin comes before the claim (as a shot's).
  ProjectileRequest p = Thrown(eye + Vec3{0, 2.7, 0});
  p.claim = ShotClaim{kTarget, 42};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kOriginImplausible);
  // command_at picks the frame: the same origin is 2 off the eye of tick 8
  // (within 2.5), 3 off that of tick 6 (beyond).
  p = Thrown(eye);
  p.command_at = Time{8, 0.0};
  v = One(world, p);
  EXPECT_EQ(v.code, ProjectileCode::kConfirmed) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, 4 * kRunStep, 1e-12);
  p.command_at = Time{6, 0.0};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kOriginImplausible);
  // Unset, it is the latest frame (tick 19, the eye at x = 9.5): 3.5 off.
  p.command_at.reset();
  v = One(world, p);
  EXPECT_EQ(v.code, ProjectileCode::kOriginImplausible) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_offset, 7 * kRunStep, 1e-12);
  // So a flight asked about again on later ticks keeps its command_at: its
  // verdict stays the same as the shooter runs on.
  p = Thrown(eye);
  p.at = Time{17, 0.0};
  p.command_at = Time{19, 0.0};
  p.origin = Vec3{9.5, 0, 1.6};
  p.velocity = NormalizedOr(Vec3{20, 0, 1.7} - p.origin, Vec3{1, 0, 0}) * 100.0;
  EXPECT_EQ(One(world, p).code, ProjectileCode::kInFlight);
  for (int tick = 20; tick < 30; ++tick) {
    BodyUpdate runner;
    runner.id = kShooter;
    runner.pose = Pose{{kRunStep * tick, 0, 0}, {}};
    ASSERT_TRUE(world.PushFrame({tick, {runner}, {}}).ok());
  }
  EXPECT_EQ(One(world, p).code, ProjectileCode::kConfirmed);
  p.command_at.reset();
  EXPECT_EQ(One(world, p).code, ProjectileCode::kOriginImplausible);
  // The shooter gone at command_at (killed while the flight goes on).
  ASSERT_TRUE(world.PushFrame({30, {}, {kShooter}}).ok());
  EXPECT_EQ(One(world, p).code, ProjectileCode::kUnknownShooter);
  p.command_at = Time{19, 0.0};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kConfirmed);
  // A bad command_at.
  p.command_at = Time{12, 1.5};
  const ProjectileVerdict bad = One(world, p);
  ASSERT_EQ(bad.code, ProjectileCode::kInvalid);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_EQ(bad.problems[0].field, "command_at.fraction");
}

TEST(ProjectileTest, ATeleportGivesTheOriginNoMotionAllowance) {
  const World world = RunnerWorld(true);
  const Vec3 eye{6, 10, 1.6};  // landed at tick 12.
  ProjectileVerdict v = One(world, Thrown(eye + Vec3{0, 1.9, 0}));
  EXPECT_NE(v.code, ProjectileCode::kOriginImplausible) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_allowance, 2.0, 1e-12);
  v = One(world, Thrown(eye + Vec3{0, 2.3, 0}));
  EXPECT_EQ(v.code, ProjectileCode::kOriginImplausible) << ProjectileCodeName(v.code);
  EXPECT_NEAR(v.origin_allowance, 2.0, 1e-12);
}

TEST(ProjectileTest, AFlightPastTheSubStepCapIsInvalid) {
  const World world = MakeWorld(200);
  ProjectileRequest p = Launch({0, -50, 1}, {30, 0, 20}, 100);
  p.gravity = {0, 0, -800};
  p.chord_tolerance = 1e-12;  // sub-steps of 1e-7 s: 10^7 for the second judged
  const ProjectileVerdict v = One(world, p);
  ASSERT_EQ(v.code, ProjectileCode::kInvalid);
  ASSERT_EQ(v.problems.size(), 1u);
  EXPECT_EQ(v.problems[0].field, "time_limit");
  EXPECT_TRUE(v.bounces.empty());
  p.chord_tolerance = 1e-300;  // a step too short to advance the time at all
  p.gravity = {0, 0, -1e300};
  EXPECT_EQ(One(world, p).code, ProjectileCode::kInvalid);
}

bool Finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Bad and extreme input never crashes a verdict: seeded requests mixing NaN,
// infinities, zeros, subnormals and the largest and smallest valid numbers
// are INVALID with fields, or verdicts whose numbers are all finite.
TEST(ProjectileTest, ExtremeAndBadInputIsInvalidOrFinite) {
  World world = MakeWorld(64, {{kFloor, kAllCategories, Floor()}});
  std::mt19937_64 rng(37);
  const double values[] = {0.0,          -0.0, 1.0,   -1.0,    0.5,   1e-50,
                           -1e-50,       1e12, -1e12, 1e-300,  1e300, std::numeric_limits<double>::infinity(),
                           std::nan(""), 64.0, 600.0, 1.0 / 64};
  const auto any = [&] { return values[rng() % std::size(values)]; };
  const auto vec = [&] { return Vec3{any(), any(), any()}; };
  int invalid = 0, judged = 0;
  for (int c = 0; c < 3000; ++c) {
    // A valid launch with each field replaced by an extreme one at odds 1 in 4.
    const auto maybe = [&](double valid) { return rng() % 4 == 0 ? any() : valid; };
    const auto maybe_vec = [&](const Vec3& valid) { return rng() % 4 == 0 ? vec() : valid; };
    ProjectileRequest p;
    p.shooter = kShooter;
    p.at = Time{static_cast<std::int64_t>(rng() % 70), maybe(0.5)};
    p.origin = maybe_vec({0, 0, 1});
    p.velocity = maybe_vec({10, 3, 5});
    p.gravity = maybe_vec({0, 0, -9.81});
    p.drag = maybe(0.1);
    p.radius = maybe(0.1);
    p.restitution = maybe(0.5);
    p.max_bounces = rng() % 4 == 0 ? static_cast<int>(rng() % 70) - 2 : 3;
    p.time_limit = maybe(2);
    p.tick_seconds = maybe(1.0 / 64);
    p.chord_tolerance = maybe(0.01);
    if (rng() % 3 == 0)
      p.claim = ShotClaim{static_cast<std::int64_t>(rng() % 4), static_cast<std::int32_t>(rng() % 3)};
    const ProjectileVerdict v = One(world, p);
    if (v.code == ProjectileCode::kInvalid) {
      ++invalid;
      EXPECT_FALSE(v.problems.empty());
      continue;
    }
    ++judged;
    EXPECT_TRUE(std::isfinite(v.seconds) && Finite(v.position) && Finite(v.velocity)) << c;
    if (v.hit)
      EXPECT_TRUE(Finite(v.hit->point) && Finite(v.hit->normal) && std::isfinite(v.hit->seconds)) << c;

    MeleeRequest m;
    m.attacker = kShooter;
    m.at = p.at;
    if (rng() % 2) {
      m.reach = MeleeArc{maybe_vec({1, 0, 0}), maybe_vec({0, 0, 1}), maybe(2), maybe(1)};
    } else {
      const double r = maybe(0.1);
      m.reach = MeleeSweep{Capsule{maybe_vec({0, 0, 1}), maybe_vec({2, -1, 1}), r},
                           Capsule{maybe_vec({0, 0, 1}), maybe_vec({2, 1, 1}), rng() % 4 == 0 ? any() : r}};
    }
    m.claim = p.claim;
    m.tolerance = maybe(0.05);
    const MeleeVerdict mv = world.ValidateMelee(std::vector<MeleeRequest>{m}).front();
    if (mv.code == ShotCode::kInvalid) {
      EXPECT_FALSE(mv.problems.empty());
    } else {
      for (const MeleeHit& h : mv.hits) EXPECT_TRUE(Finite(h.point) && std::isfinite(h.distance)) << c;
    }
  }
  EXPECT_GT(invalid, 100);
  EXPECT_GT(judged, 100);
}

}  // namespace
}  // namespace collide
