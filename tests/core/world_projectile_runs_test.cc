// A projectile's body lookups serve a run of frame intervals only while the
// frames keep the same bodies (projectile.cc, snapshot.h): a body that
// appears, teleports, grows or enters the projectile's mask in the middle of
// such a run is still hit.
#include <gtest/gtest.h>

#include <string>

#include "collide/projectile.h"

namespace collide {
namespace {

constexpr double kTick = 1.0 / 64.0;
enum : std::int64_t { kShooter = 1, kFar = 2, kTarget = 3 };
enum : std::int32_t { kChest = 1 };
constexpr CategoryMask kPlayers = 1, kGhosts = 2;

enum class Change { kAdded, kTeleported, kGrown, kRecategorised };

BodyUpdate Body(std::int64_t id, const Vec3& position, double half_width) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{position, {}};
  u.parts = {{kChest, Aabb{{-0.2, -half_width, 0.9}, {0.2, half_width, 1.5}}, {}}};
  return u;
}

// Ticks 0..39, a moving body far off the path in every frame; the target
// reaches the path at x = 10 at tick `at` (before it: absent, away, too
// narrow, or outside the projectile's mask).
World MakeWorld(Change change, std::int64_t at) {
  WorldSettings settings;
  settings.history_ticks = 40;
  settings.max_rewind_ticks = 40;
  World world(settings, {});
  for (std::int64_t tick = 0; tick < 40; ++tick) {
    Frame f{tick, {}, {}};
    f.bodies.push_back(Body(kFar, {0.1 * static_cast<double>(tick), 50, 0}, 0.25));
    if (tick == 0) f.bodies.push_back(Body(kShooter, {0, 0, 0}, 0.25));
    BodyUpdate target = Body(kTarget, {10, 0, 0}, 0.25);
    switch (change) {
      case Change::kAdded:
        break;
      case Change::kTeleported:
        if (tick < at) target.pose = Pose{{10, 50, 0}, {}};
        target.teleport = tick == at;
        break;
      case Change::kGrown:
        // Its chest off the path, its bounds too until it widens.
        target = Body(kTarget, {10, 4, 0}, tick < at ? 0.25 : 4.5);
        break;
      case Change::kRecategorised:
        target.category = tick < at ? kGhosts : kPlayers;
        break;
    }
    const bool send = change == Change::kAdded ? tick == at : tick == 0 || tick == at || tick == at - 1;
    if (send) f.bodies.push_back(target);
    EXPECT_TRUE(world.PushFrame(f).ok()) << tick;
  }
  return world;
}

TEST(ProjectileRunsTest, ABodyChangingInTheMiddleOfARunIsHit) {
  for (const Change change : {Change::kAdded, Change::kTeleported, Change::kGrown, Change::kRecategorised}) {
    // The projectile reaches the chest's face (x = 9.8) at 0.4875 s, tick
    // 31.2: a change at ticks 26-31 falls inside a run of 8 intervals.
    for (std::int64_t at = 26; at <= 31; ++at) {
      const World world = MakeWorld(change, at);
      ProjectileRequest p;
      p.shooter = kShooter;
      p.at = Time{0, 0.0};
      p.origin = {0, 0, 1.2};
      p.velocity = {20, 0, 0};
      p.radius = 0.05;
      p.time_limit = 0.6;
      p.tick_seconds = kTick;
      p.mask = kPlayers;
      const std::string where =
          "change " + std::to_string(static_cast<int>(change)) + " at " + std::to_string(at);
      const ProjectileVerdict v = world.ValidateProjectiles(std::vector<ProjectileRequest>{p}).front();
      ASSERT_EQ(v.code, ProjectileCode::kConfirmed) << where;
      ASSERT_TRUE(v.hit.has_value()) << where;
      EXPECT_EQ(v.hit->target.id, kTarget) << where;
      EXPECT_NEAR(v.hit->seconds, 0.4875, 0.002) << where;
    }
  }
}

}  // namespace
}  // namespace collide
