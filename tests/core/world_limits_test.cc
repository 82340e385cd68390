// Worlds whose cost must follow the request, not explode with it (issue 33):
// a world of 100,000 primitive statics answers rays through its tree exactly
// as brute force does; duplicate static ids and bad frame entries are named
// once each, and a frame of millions of bad entries stops at a bounded list;
// an overlap touching thousands of triangles keeps only max_results of them
// and counts all.
#include <gtest/gtest.h>

#include <random>

#include "collide/query.h"
#include "collide/world.h"
#include "support/case_count.h"

namespace collide {
namespace {

TEST(WorldLimitsTest, ManyPrimitiveStaticsAnswerRaysAsBruteForce) {
  // Spheres, boxes and capsules on a 50 x 50 x 40 grid, plus a halfspace.
  std::vector<StaticElement> statics;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> jitter(-0.3, 0.3);
  std::int64_t id = 1;
  const int n = testing::kSanitized ? 10 : 40;
  for (int i = 0; i < 50; ++i) {
    for (int j = 0; j < 50; ++j) {
      for (int k = 0; k < n; ++k) {
        const Vec3 c{2.0 * i + jitter(rng), 2.0 * j + jitter(rng), 2.0 * k + jitter(rng)};
        Shape s;
        switch (id % 3) {
          case 0:
            s = Sphere{c, 0.4};
            break;
          case 1:
            s = Aabb{c - Vec3{0.3, 0.3, 0.3}, c + Vec3{0.3, 0.3, 0.3}};
            break;
          default:
            s = Capsule{c, c + Vec3{0.5, 0.2, 0}, 0.25};
        }
        statics.push_back({id++, kAllCategories, s});
      }
    }
  }
  statics.push_back({id++, kAllCategories, Shape{Halfspace{{0, 0, 1}, -5}}});  // z <= -5.
  std::vector<Violation> problems;
  ASSERT_TRUE(World::ValidateStatics(statics, problems));
  const World world({}, statics);
  std::uniform_real_distribution<double> u(-10, 110);
  int hits = 0;
  for (int c = 0; c < testing::CaseCount(200); ++c) {
    RayQuery q;
    q.ray = Ray{{u(rng), u(rng), u(rng)}, {u(rng) - 50, u(rng) - 50, u(rng) - 50}, c % 2 ? kInfinity : 30.0};
    q.mode = c % 3 == 0 ? RayMode::kAll : RayMode::kClosest;
    q.max_hits = 8;
    const RayQueryResult r = world.RayCasts({&q, 1})[0];
    // Brute force: every element.
    std::vector<WorldRayHit> want;
    for (const StaticElement& e : statics) {
      const RayHit h = RayCast(q.ray, std::get<Shape>(e.geometry));
      if (h.hit) want.push_back({h.distance, h.point, h.normal, {HitTarget::Kind::kStatic, e.id, 0, 0}});
    }
    std::sort(want.begin(), want.end(), [](const WorldRayHit& a, const WorldRayHit& b) {
      return a.distance < b.distance || (a.distance == b.distance && TargetLess(a.target, b.target));
    });
    SCOPED_TRACE(c);
    if (q.mode == RayMode::kAll) {
      EXPECT_EQ(r.total_hits, want.size());
      want.resize(std::min<std::size_t>(want.size(), q.max_hits));
    } else if (want.size() > 1) {
      want.resize(1);
    }
    ASSERT_EQ(r.hits, want);
    hits += !want.empty();
  }
  EXPECT_GT(hits, testing::CaseCount(200) / 4);
}

TEST(WorldLimitsTest, DuplicateStaticIdsAreNamedOnceEach) {
  std::vector<StaticElement> statics(8000, StaticElement{7, kAllCategories, Shape{Sphere{{0, 0, 0}, 1}}});
  std::vector<Violation> problems;
  EXPECT_FALSE(World::ValidateStatics(statics, problems));
  EXPECT_EQ(problems.size(), statics.size() - 1);  // every element after the first, not every pair.
  EXPECT_EQ(problems.front().field, "statics[1].id");
}

TEST(WorldLimitsTest, AFrameOfMillionsOfBadEntriesStopsAtABoundedList) {
  World world({}, {});
  BodyUpdate body;
  body.id = 1;
  body.pose = Pose{};
  body.parts = {{0, Sphere{{0, 0, 0}, 1}, Pose{}}};
  ASSERT_TRUE(world.PushFrame({1, {body}, {}}).ok());
  Frame bad{2, {}, std::vector<std::int64_t>(testing::kSanitized ? 200'000 : 4'000'000, 1)};
  const FrameError e = world.PushFrame(bad);
  EXPECT_EQ(e.kind, FrameError::Kind::kInvalid);
  EXPECT_LE(e.problems.size(), 101u);
  EXPECT_EQ(e.problems.front().field, "removals[1]");
  EXPECT_NE(e.message.find("at least"), std::string::npos) << e.message;
  EXPECT_EQ(world.latest_tick(), 1);  // nothing applied.
}

TEST(WorldLimitsTest, AnOverlapKeepsMaxResultsAndCountsEveryHit) {
  // A floor of 100 x 100 unit squares, 20,000 triangles, under one box.
  MeshData floor;
  for (int j = 0; j <= 100; ++j)
    for (int i = 0; i <= 100; ++i) floor.vertices.push_back({double(i), double(j), 0.0});
  for (int j = 0; j < 100; ++j) {
    for (int i = 0; i < 100; ++i) {
      const auto v = static_cast<std::uint32_t>(j * 101 + i);
      floor.triangles.push_back({v, v + 1, v + 102});
      floor.triangles.push_back({v, v + 102, v + 101});
    }
  }
  const World world({}, {{1, kAllCategories, std::make_shared<const TriangleMesh>(std::move(floor))}});
  OverlapQuery q;
  q.shape = Aabb{{-1, -1, -1}, {101, 101, 1}};
  q.max_results = 10;
  const OverlapQueryResult r = world.Overlaps({&q, 1})[0];
  EXPECT_EQ(r.total_hits, 20000u);
  ASSERT_EQ(r.hits.size(), 10u);
  for (std::uint32_t t = 0; t < 10; ++t) EXPECT_EQ(r.hits[t].target.triangle, t);  // the first in target order.
}

}  // namespace
}  // namespace collide
