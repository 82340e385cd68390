// World history: frames accepted or rejected whole, the interpolation rule
// across gaps, adds, removals and teleports, clamping, and rewinding part
// sets (crouch), and the history's memory accounting against a walk of it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <unordered_set>

#include "collide/world.h"
#include "support/case_count.h"
#include "world/scene.h"

namespace collide {
namespace {

Quat Yaw(double radians) { return {std::cos(radians / 2), 0, 0, std::sin(radians / 2)}; }
// A rotation as a frame stores it: scaled to unit norm (world.h), the same
// arithmetic bit for bit.
Quat Unit(const Quat& q) {
  const double n = Norm(q);
  return {q.w / n, q.x / n, q.y / n, q.z / n};
}

BodyUpdate NewBody(std::int64_t id, const Vec3& p, double head_z = 1.6) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, Quat{}};
  u.parts = {{1, Sphere{{0, 0, head_z}, 0.15}, Pose{}},
             {2, Aabb{{-0.25, -0.25, 1.0}, {0.25, 0.25, 1.45}}, Pose{}}};
  return u;
}
BodyUpdate Move(std::int64_t id, const Vec3& p, const Quat& q = {}) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{p, q};
  return u;
}

TEST(WorldHistoryTest, PoseFollowsTheRuleAcrossGapsAddsAndRemovals) {
  World world({}, {});
  ASSERT_TRUE(world.PushFrame({10, {NewBody(1, {0, 0, 0}), NewBody(2, {5, 0, 0})}, {}}).ok());
  // Tick 11 missing: a gap. Body 3 added at 12, body 2 removed at 13.
  ASSERT_TRUE(world.PushFrame({12, {Move(1, {4, 2, 0}, Yaw(0.5)), NewBody(3, {9, 9, 0})}, {}}).ok());
  ASSERT_TRUE(world.PushFrame({13, {Move(1, {5, 2, 0}, Yaw(0.6))}, {2}}).ok());

  const Pose p10{{0, 0, 0}, Quat{}}, p12{{4, 2, 0}, Unit(Yaw(0.5))};
  // (11, 0.5) is 1.5 of the 2 ticks from 10 to 12.
  EXPECT_EQ(world.BodyPoseAt(1, Time{11, 0.5}), Interpolate(p10, p12, 0.75));
  EXPECT_EQ(world.BodyPoseAt(1, Time{10, 0.0}), p10);
  EXPECT_EQ(world.BodyPoseAt(1, Time{12, 0.0}), p12);
  const Pose mid = *world.BodyPoseAt(1, Time{11, 0.5});
  EXPECT_DOUBLE_EQ(mid.position.x, 3.0);
  EXPECT_DOUBLE_EQ(mid.position.y, 1.5);
  EXPECT_NEAR(Norm(mid.rotation), 1.0, 1e-15);
  // Body 3 does not exist before tick 12, and is never hit before it.
  EXPECT_FALSE(world.BodyPoseAt(3, Time{11, 0.99}));
  EXPECT_TRUE(world.BodyPoseAt(3, Time{12, 0.0}));
  RayQuery ray{{{9, 9, 10}, {0, 0, -1}}, Time{11, 0.99}, {}, RayMode::kAll, 8};
  EXPECT_TRUE(world.RayCasts({&ray, 1})[0].hits.empty());
  ray.at = Time{12, 0.0};
  EXPECT_EQ(world.RayCasts({&ray, 1})[0].hits.size(), 2u);
  // Body 2 keeps its last pose until the frame that removes it, then is gone.
  EXPECT_EQ(world.BodyPoseAt(2, Time{12, 0.9})->position, (Vec3{5, 0, 0}));
  EXPECT_FALSE(world.BodyPoseAt(2, Time{13, 0.0}));
  // Unmentioned bodies keep their pose.
  EXPECT_EQ(world.BodyPoseAt(3, std::nullopt)->position, (Vec3{9, 9, 0}));
}

TEST(WorldHistoryTest, ClampsToTheKeptHistory) {
  WorldSettings s;
  s.history_ticks = 4;
  World w2(s, {});
  EXPECT_EQ(w2.Resolve(Time{5, 0.0}), (TimeUsed{Time{0, 0.0}, true}));
  ASSERT_TRUE(w2.PushFrame({1, {NewBody(1, {1, 0, 0})}, {}}).ok());
  for (int tick = 2; tick <= 10; ++tick)
    ASSERT_TRUE(w2.PushFrame({tick, {Move(1, {1.0 * tick, 0, 0})}, {}}).ok());
  EXPECT_EQ(w2.frame_count(), 4u);
  EXPECT_EQ(w2.oldest_tick(), 7);
  EXPECT_EQ(w2.Resolve(Time{3, 0.5}), (TimeUsed{Time{7, 0.0}, true}));
  EXPECT_EQ(w2.Resolve(Time{10, 0.25}), (TimeUsed{Time{10, 0.0}, true}));
  EXPECT_EQ(w2.Resolve(Time{11, 0.0}), (TimeUsed{Time{10, 0.0}, true}));
  EXPECT_EQ(w2.Resolve(std::nullopt), (TimeUsed{Time{10, 0.0}, false}));
  EXPECT_EQ(w2.Resolve(Time{8, 0.5}), (TimeUsed{Time{8, 0.5}, false}));
  EXPECT_EQ(w2.BodyPoseAt(1, Time{2, 0.0})->position.x, 7.0);
  EXPECT_EQ(w2.BodyPoseAt(1, Time{8, 0.5})->position.x, 8.5);
  // Results say which time they used.
  RayQuery ray{{{0, 0, 1.6}, {1, 0, 0}}, Time{2, 0.0}};
  const RayQueryResult r = w2.RayCasts({&ray, 1})[0];
  EXPECT_TRUE(r.time.clamped);
  EXPECT_EQ(r.time.used, (Time{7, 0.0}));
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_NEAR(r.hits[0].distance, 7.0 - 0.15, 1e-12);
}

TEST(WorldHistoryTest, TeleportedBodyIsNeverBetweenItsPoses) {
  World world({}, {});
  ASSERT_TRUE(world.PushFrame({1, {NewBody(1, {0, 0, 0}), NewBody(2, {0, 10, 0})}, {}}).ok());
  BodyUpdate jump = Move(1, {100, 0, 0});
  jump.teleport = true;
  ASSERT_TRUE(world.PushFrame({2, {jump, Move(2, {100, 10, 0})}, {}}).ok());
  for (double f : {0.1, 0.5, 0.99}) {
    EXPECT_EQ(world.BodyPoseAt(1, Time{1, f})->position, (Vec3{0, 0, 0}));
    // A vertical ray through x = 50: the walking body 2 is there at 0.5, the
    // teleported body 1 never.
    RayQuery ray{{{50, 0, 10}, {0, 0, -1}}, Time{1, f}, {}, RayMode::kAll, 8};
    EXPECT_TRUE(world.RayCasts({&ray, 1})[0].hits.empty());
  }
  RayQuery control{{{50, 10, 10}, {0, 0, -1}}, Time{1, 0.5}, {}, RayMode::kAll, 8};
  EXPECT_EQ(world.RayCasts({&control, 1})[0].hits.size(), 2u);
  EXPECT_EQ(world.BodyPoseAt(1, Time{2, 0.0})->position, (Vec3{100, 0, 0}));
}

TEST(WorldHistoryTest, CrouchIsRewoundWithTheHitboxesOfItsTime) {
  World world({}, {});
  ASSERT_TRUE(world.PushFrame({1, {NewBody(1, {10, 0, 0})}, {}}).ok());
  BodyUpdate crouch = NewBody(1, {10, 0, 0}, 1.1);
  crouch.parts.pop_back();  // a different part set: head only, lower.
  ASSERT_TRUE(world.PushFrame({2, {crouch}, {}}).ok());
  RayQuery head_high{{{0, 0, 1.6}, {1, 0, 0}}, Time{1, 0.5}};
  RayQuery head_low{{{0, 0, 1.2}, {1, 0, 0}}, Time{1, 0.5}};
  std::vector<RayQuery> q{head_high, head_low};
  auto r = world.RayCasts(q);
  ASSERT_EQ(r[0].hits.size(), 1u);  // standing head at 1.6, the earlier frame's parts.
  EXPECT_EQ(r[0].hits[0].target.part, 1);
  ASSERT_EQ(r[1].hits.size(), 1u);  // the chest box (1.0..1.45) then; the head was at 1.6.
  EXPECT_EQ(r[1].hits[0].target.part, 2);
  for (auto& x : q) x.at = Time{2, 0.0};
  r = world.RayCasts(q);
  EXPECT_TRUE(r[0].hits.empty());
  ASSERT_EQ(r[1].hits.size(), 1u);
  EXPECT_EQ(r[1].hits[0].target.part, 1);
  EXPECT_EQ(world.BodyPartsAt(1, Time{1, 0.0}).size(), 2u);
  EXPECT_EQ(world.BodyPartsAt(1, Time{2, 0.0}).size(), 1u);
}

TEST(WorldHistoryTest, PartPosesAreInterpolatedBetweenEqualPartSets) {
  World world({}, {});
  ASSERT_TRUE(world.PushFrame({1, {NewBody(1, {0, 0, 0})}, {}}).ok());
  BodyUpdate nod = Move(1, {0, 0, 0});
  nod.part_poses = {{1, Pose{{0, 0, -0.4}, Quat{}}}};
  ASSERT_TRUE(world.PushFrame({2, {nod}, {}}).ok());
  const auto parts = world.BodyPartsAt(1, Time{1, 0.25});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].first, 1);
  EXPECT_DOUBLE_EQ(std::get<Sphere>(parts[0].second).center.z, 1.5);
}

// The bytes of the kept frames by walking them: each snapshot's own, and
// each part set and part pose vector once however many frames share it.
std::size_t WalkHistoryBytes(const World& world) {
  std::size_t bytes = 0;
  std::unordered_set<const void*> seen;
  for (const auto& s : internal::SceneAccess::History(world)) {
    bytes += sizeof(internal::Snapshot) + s->bodies.capacity() * sizeof(internal::BodyState) +
             s->tree.memory_bytes();
    for (const internal::BodyState& b : s->bodies) {
      if (seen.insert(b.parts.get()).second) {
        bytes += b.parts->ids.capacity() * sizeof(std::int32_t) + b.parts->shapes.capacity() * sizeof(Shape);
      }
      if (seen.insert(b.part_poses.get()).second) bytes += b.part_poses->capacity() * sizeof(Pose);
    }
  }
  return bytes;
}

// history_bytes() is kept as frames come and go (history_memory.h): after
// every frame of seeded runs of adds, moves, part set changes (which start
// sharing anew), part pose changes and removals, with the history wrapping
// (2 to 6 frames kept, frames evicted), it equals the walk.
TEST(WorldHistoryTest, HistoryBytesEqualAWalkOfTheKeptFrames) {
  for (int c = 0; c < testing::CaseCount(200); ++c) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(c));
    WorldSettings settings;
    settings.history_ticks = 2 + c % 5;
    World world(settings, {});
    std::set<std::int64_t> alive;
    std::uniform_real_distribution<double> coord(-20, 20);
    for (std::int64_t tick = 1; tick <= 40; ++tick) {
      Frame f{tick, {}, {}};
      std::set<std::int64_t> touched;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t id = static_cast<std::int64_t>(rng() % 12);
        if (!touched.insert(id).second) continue;
        const Vec3 p{coord(rng), coord(rng), 0};
        if (!alive.count(id)) {
          f.bodies.push_back(NewBody(id, p, 1.2 + 0.1 * static_cast<double>(rng() % 5)));
          alive.insert(id);
          continue;
        }
        switch (rng() % 4) {
          case 0:
            f.bodies.push_back(Move(id, p));
            break;
          case 1:  // a new part set (crouch).
            f.bodies.push_back(NewBody(id, p, 1.1));
            f.bodies.back().parts.pop_back();
            break;
          case 2: {  // a part's local pose (animation): part 1 exists in every set.
            BodyUpdate u = Move(id, p);
            u.part_poses = {{1, Pose{{0, 0, 0.01 * static_cast<double>(tick)}, Quat{}}}};
            f.bodies.push_back(u);
            break;
          }
          default:
            f.removals.push_back(id);
            alive.erase(id);
        }
      }
      ASSERT_TRUE(world.PushFrame(f).ok()) << "case " << c << " tick " << tick;
      ASSERT_EQ(world.history_bytes(), WalkHistoryBytes(world)) << "case " << c << " tick " << tick;
    }
  }
}

TEST(WorldHistoryTest, RejectsFramesWholeAndLeavesTheWorldUnchanged) {
  World world({}, {});
  ASSERT_TRUE(world.PushFrame({5, {NewBody(1, {0, 0, 0}), NewBody(2, {3, 0, 0})}, {}}).ok());
  const FrameError stale = world.PushFrame({5, {Move(1, {1, 0, 0})}, {}});
  EXPECT_EQ(stale.kind, FrameError::Kind::kTickNotIncreasing);
  EXPECT_NE(stale.message.find("tick 5"), std::string::npos);
  EXPECT_EQ(world.PushFrame({4, {}, {}}).kind, FrameError::Kind::kTickNotIncreasing);

  Frame bad{6, {}, {}};
  bad.bodies.push_back(Move(1, {1, 0, 0}));                    // fine alone
  bad.bodies.push_back(Move(2, {std::nan(""), 0, 0}));         // NaN
  bad.bodies.push_back(Move(1, {2, 0, 0}, Quat{2, 0, 0, 0}));  // duplicate, non-unit
  bad.bodies.push_back(Move(9, {0, 0, 0}));                    // unknown without parts
  BodyUpdate hull = NewBody(10, {0, 0, 0});
  hull.parts[1].shape = Halfspace{{0, 0, 1}, 0};  // not a part kind
  hull.part_poses = {{7, Pose{}}};                // unknown part
  bad.bodies.push_back(hull);
  bad.removals = {42};  // unknown body
  const FrameError e = world.PushFrame(bad);
  ASSERT_EQ(e.kind, FrameError::Kind::kInvalid);
  std::vector<std::string> fields;
  for (const Violation& v : e.problems) fields.push_back(v.field);
  EXPECT_EQ(fields,
            (std::vector<std::string>{"bodies[1].pose.position", "bodies[2].id", "bodies[2].pose.rotation",
                                      "bodies[3].parts", "bodies[4].parts[1].shape",
                                      "bodies[4].part_poses[0].part", "removals[0]"}));
  EXPECT_EQ(world.frame_count(), 1u);
  EXPECT_EQ(world.latest_tick(), 5);
  EXPECT_EQ(world.BodyPoseAt(1, std::nullopt)->position, (Vec3{0, 0, 0}));
  EXPECT_FALSE(world.BodyPoseAt(10, std::nullopt));
  // The same frame without its problems is accepted.
  EXPECT_TRUE(world.PushFrame({6, {Move(1, {1, 0, 0})}, {2}}).ok());
  EXPECT_EQ(world.body_count(), 1u);
}

}  // namespace
}  // namespace collide

namespace collide {
namespace {

TEST(WorldInputTest, InvalidQueriesAreReportedPerQueryNotForTheBatch) {
  World world({}, {{1, kAllCategories, Shape{Sphere{{0, 0, 0}, 1}}}});
  ASSERT_TRUE(world.PushFrame({1, {NewBody(1, {5, 0, 0})}, {}}).ok());
  std::vector<RayQuery> rays(3);
  rays[0].ray = {{-5, 0, 0}, {1, 0, 0}};
  rays[1].ray = {{-5, 0, 0}, {0, 0, 0}};  // zero direction
  rays[2].ray = {{-5, 0, 0}, {1, 0, 0}};
  rays[2].at = Time{1, -0.5};
  const auto r = world.RayCasts(rays);
  EXPECT_TRUE(r[0].valid);
  ASSERT_EQ(r[0].hits.size(), 1u);
  EXPECT_EQ(r[0].hits[0].target, (HitTarget{HitTarget::Kind::kStatic, 1, 0, 0}));
  EXPECT_FALSE(r[1].valid);
  EXPECT_EQ(r[1].problems.at(0).field, "direction");
  EXPECT_FALSE(r[2].valid);
  EXPECT_EQ(r[2].problems.at(0).field, "at.fraction");

  OverlapQuery overlap{Sphere{{0, 0, std::nan("")}, 1}};
  EXPECT_FALSE(world.Overlaps({&overlap, 1})[0].valid);
  ShapeCastQuery cast{Halfspace{{0, 0, 1}, 0}, {1, 0, 0}};
  const ShapeCastResult c = world.ShapeCasts({&cast, 1})[0];
  EXPECT_FALSE(c.valid);
  EXPECT_EQ(c.problems.at(0).field, "shape");
  // A valid cast: a unit sphere from x = -5 along +x meets the static sphere
  // at x = -2 (t = 3 / 10).
  ShapeCastQuery ok{Sphere{{-5, 0, 0}, 1}, {10, 0, 0}};
  const ShapeCastResult hit = world.ShapeCasts({&ok, 1})[0];
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.t, 0.3, 1e-9);
  EXPECT_EQ(hit.target.id, 1);

  std::vector<Violation> problems;
  WorldSettings bad;
  bad.history_ticks = 0;
  bad.skin_width = -1;
  EXPECT_FALSE(ValidateSettings(bad, problems));
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0].field, "history_ticks");
  EXPECT_EQ(problems[1].field, "skin_width");
  problems.clear();
  WorldSettings standing;  // A move with no speed of its own could never move.
  standing.default_max_speed = 0;
  EXPECT_FALSE(ValidateSettings(standing, problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "default_max_speed");
  EXPECT_EQ(problems[0].description, "must be a valid number > 0");
  problems.clear();
  const std::vector<StaticElement> statics{{1, kAllCategories, Shape{Sphere{{0, 0, 0}, -1}}},
                                           {1, kAllCategories, std::shared_ptr<const TriangleMesh>()}};
  EXPECT_FALSE(World::ValidateStatics(statics, problems));
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].field, "statics[0].shape.radius");
  EXPECT_EQ(problems[1].field, "statics[1].id");
  EXPECT_EQ(problems[2].field, "statics[1].mesh");
}

}  // namespace
}  // namespace collide
