// A world on OpenArena's aggressor (Quake units) with 64 moving bodies of 16
// hitboxes each over 128 ticks: ray casts and overlaps at random kept times
// against brute force over every map triangle and every hitbox at the time.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "collide/import/map_import.h"
#include "collide/query.h"
#include "collide/world.h"
#include "support/case_count.h"
#include "support/player_hitboxes.h"

namespace collide {
namespace {

using testing::CaseCount;

TEST(WorldMapTest, AggressorWith64BodiesOver128TicksMatchesBruteForce) {
  importer::ImportOptions options;
  options.map = "aggressor";
  auto imported = importer::ImportMap("/usr/share/games/openarena/baseoa/pak6-patch088.pk3", options);
  ASSERT_TRUE(imported.ok()) << imported.status();
  auto mesh = std::make_shared<const TriangleMesh>(imported->mesh);
  const Aabb bounds = mesh->bounds();
  WorldSettings settings;
  settings.history_ticks = 128;
  World world(settings, {{1, kAllCategories, mesh}});
  std::mt19937_64 rng(64);
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  const auto point = [&] {
    return Vec3{uniform(bounds.min.x, bounds.max.x), uniform(bounds.min.y, bounds.max.y),
                uniform(bounds.min.z, bounds.max.z)};
  };
  std::vector<Vec3> position(64), velocity(64);
  std::vector<double> yaw(64);
  for (std::int64_t tick = 1; tick <= 140; ++tick) {
    Frame f{tick, {}, {}};
    for (int b = 0; b < 64; ++b) {
      if (tick == 1) position[b] = point();
      if (tick % 20 == 1) velocity[b] = Vec3{uniform(-10, 10), uniform(-10, 10), 0};
      position[b] += velocity[b];
      yaw[b] += uniform(-0.2, 0.2);
      BodyUpdate u;
      u.id = b + 1;
      u.pose = Pose{position[b], Quat{std::cos(yaw[b] / 2), 0, 0, std::sin(yaw[b] / 2)}};
      if (tick == 1) u.parts = testing::PlayerHitboxes();
      f.bodies.push_back(std::move(u));
    }
    ASSERT_TRUE(world.PushFrame(f).ok());
  }
  ASSERT_EQ(world.frame_count(), 128u);
  for (int c = 0; c < CaseCount(60); ++c) {
    const Time at{13 + static_cast<std::int64_t>(rng() % 127), uniform(0, 1)};
    // Aim from a random point at a random body's chest: rays that meet bodies.
    const Vec3 origin = point();
    const Vec3 aim =
        world.BodyPoseAt(1 + static_cast<std::int64_t>(rng() % 64), at)->position + Vec3{0, 0, 36};
    RayQuery q{{origin, aim - origin, kInfinity}, at, {}, RayMode::kAll, 1u << 20};
    RayQuery closest = q;
    closest.mode = RayMode::kClosest;
    const auto r = world.RayCasts(std::vector<RayQuery>{q, closest});
    std::set<std::tuple<int, std::int64_t, std::uint32_t, std::int32_t>> brute, got;
    double nearest = kInfinity;
    for (std::uint32_t t = 0; t < mesh->triangle_count(); ++t) {
      const RayHit h = RayCast(q.ray, mesh->triangle(t));
      if (h.hit) {
        brute.insert({0, 1, t, 0});
        nearest = std::min(nearest, h.distance);
      }
    }
    for (std::int64_t b = 1; b <= 64; ++b) {
      for (const auto& [part, shape] : world.BodyPartsAt(b, at)) {
        const RayHit h = RayCast(q.ray, shape);
        if (h.hit) {
          brute.insert({1, b, 0, part});
          nearest = std::min(nearest, h.distance);
        }
      }
    }
    for (const auto& h : r[0].hits)
      got.insert({int(h.target.kind), h.target.id, h.target.triangle, h.target.part});
    EXPECT_EQ(got, brute) << "case " << c;
    ASSERT_EQ(r[1].hits.size(), brute.empty() ? 0u : 1u);
    if (!brute.empty()) EXPECT_NEAR(r[1].hits[0].distance, nearest, 1e-9 * (1 + nearest));

    OverlapQuery o{Capsule{aim, aim + Vec3{0, 0, -40}, 16}, at, {}, QueryLevel::kIntersect, 1u << 20};
    std::set<std::tuple<int, std::int64_t, std::uint32_t, std::int32_t>> obrute, ogot;
    for (std::uint32_t t = 0; t < mesh->triangle_count(); ++t) {
      if (Intersect(o.shape, mesh->triangle(t)).hit) obrute.insert({0, 1, t, 0});
    }
    for (std::int64_t b = 1; b <= 64; ++b) {
      for (const auto& [part, shape] : world.BodyPartsAt(b, at)) {
        if (Intersect(o.shape, shape).hit) obrute.insert({1, b, 0, part});
      }
    }
    const OverlapQueryResult overlaps = world.Overlaps({&o, 1})[0];
    for (const auto& h : overlaps.hits) {
      ogot.insert({int(h.target.kind), h.target.id, h.target.triangle, h.target.part});
    }
    EXPECT_EQ(ogot, obrute) << "case " << c;
  }
}

}  // namespace
}  // namespace collide
