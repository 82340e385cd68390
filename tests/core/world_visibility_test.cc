// Visibility sets on synthetic levels: walls of box meshes (closed, outward)
// with seams, convex primitives, look-ahead, bad requests, and random walls
// against a dense line-of-sight reference (the same reference as the map
// test: segments from the eye region's samples to a 9 x 9 grid per face of
// the target's region).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "collide/mesh.h"
#include "collide/world.h"
#include "support/case_count.h"

namespace collide {
namespace {

using testing::CaseCount;

// The box [lo, hi] as 12 triangles, counter-clockwise seen from outside.
void AddBox(MeshData& mesh, const Vec3& lo, const Vec3& hi) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int c = 0; c < 8; ++c)
    mesh.vertices.push_back({c & 1 ? hi.x : lo.x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z});
  // Faces as corner quads (a, b, c, d) counter-clockwise from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    mesh.triangles.push_back({base + q[0], base + q[1], base + q[2]});
    mesh.triangles.push_back({base + q[0], base + q[2], base + q[3]});
  }
}

BodyUpdate Player(std::int64_t id, const Vec3& feet) {
  BodyUpdate u;
  u.id = id;
  u.pose = Pose{feet, Quat{1, 0, 0, 0}};
  u.parts = {BodyPart{0, Aabb{{-16, -16, 0}, {16, 16, 56}}, Pose{}}};
  u.eye = Vec3{0, 0, 50};
  return u;
}

WorldSettings Occluding() {
  WorldSettings s;
  s.visibility.occluder_mask = 1;
  return s;
}

// Two rooms along x split by a wall at x 100..132 of two stacked boxes (a
// seam at z 32, inside a voxel and at the players' height), and an OBB wall
// at y 400.
std::vector<StaticElement> Level() {
  MeshData mesh;
  AddBox(mesh, {100, -200, 0}, {132, 200, 32});
  AddBox(mesh, {100, -200, 32}, {132, 200, 200});
  const Obb wall = Obb::FromQuat({0, 400, 100}, Quat{1, 0, 0, 0}, {300, 16, 100});
  return {{1, 1, std::make_shared<const TriangleMesh>(std::move(mesh))}, {2, 1, Shape{wall}}};
}

std::vector<std::int64_t> VisibleFrom(const VisibilityResult& r, std::int64_t observer) {
  for (const VisibilitySet& s : r.sets) {
    if (s.observer == observer) return s.visible;
  }
  return {};
}

TEST(WorldVisibility, WallsWithSeamsAndConvexStaticsHide) {
  World world(Occluding(), Level());
  ASSERT_TRUE(world.visibility_info().built);
  ASSERT_TRUE(world
                  .PushFrame({1,
                              {Player(1, {0, 0, 0}), Player(2, {250, 0, 0}), Player(3, {0, 600, 0}),
                               Player(4, {40, 50, 0})},
                              {}})
                  .ok());
  const VisibilityResult r = world.VisibleSets({});
  ASSERT_TRUE(r.valid);
  EXPECT_EQ(VisibleFrom(r, 1), (std::vector<std::int64_t>{4}));  // 2 behind the seamed wall, 3 behind the OBB
  EXPECT_EQ(VisibleFrom(r, 2), (std::vector<std::int64_t>{}));
  EXPECT_EQ(r.pairs, 12);
  EXPECT_EQ(VisibleFrom(r, 3), (std::vector<std::int64_t>{}));
  EXPECT_EQ(r.hidden, 10);  // all but 1 <-> 4
}

TEST(WorldVisibility, LookAheadShowsATargetAboutToStepOut) {
  World world(Occluding(), Level());
  // Player 1 near the wall's end (y 200), player 2 behind it running +y at
  // 16 units a tick.
  ASSERT_TRUE(world.PushFrame({1, {Player(1, {0, 190, 0}), Player(2, {250, 160, 0})}, {}}).ok());
  ASSERT_TRUE(world.PushFrame({2, {Player(2, {250, 176, 0})}, {}}).ok());
  VisibilityRequest now;
  EXPECT_EQ(VisibleFrom(world.VisibleSets(now), 1), (std::vector<std::int64_t>{}));
  VisibilityRequest ahead;
  ahead.tick_seconds = 0.05;
  ahead.latency = 0.2;  // 4 ticks: 64 units, past the wall's end
  EXPECT_EQ(VisibleFrom(world.VisibleSets(ahead), 1), (std::vector<std::int64_t>{2}));
  VisibilityRequest margin;
  margin.margin = 80;
  EXPECT_EQ(VisibleFrom(world.VisibleSets(margin), 1), (std::vector<std::int64_t>{2}));
}

TEST(WorldVisibility, WithoutOccludersEveryoneSeesEveryone) {
  World world(WorldSettings{}, Level());
  EXPECT_FALSE(world.visibility_info().built);
  ASSERT_TRUE(world.PushFrame({1, {Player(1, {0, 0, 0}), Player(2, {250, 0, 0})}, {}}).ok());
  EXPECT_EQ(VisibleFrom(world.VisibleSets({}), 1), (std::vector<std::int64_t>{2}));
}

TEST(WorldVisibility, BadRequestsAndUnknownObservers) {
  World world(Occluding(), Level());
  ASSERT_TRUE(world.PushFrame({1, {Player(1, {0, 0, 0})}, {}}).ok());
  VisibilityRequest bad;
  bad.latency = 0.1;  // without tick_seconds
  bad.margin = -1;
  bad.at = Time{1, 1.5};
  const VisibilityResult r = world.VisibleSets(bad);
  EXPECT_FALSE(r.valid);
  std::vector<std::string> fields;
  for (const Violation& v : r.problems) fields.push_back(v.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"margin", "tick_seconds", "at.fraction"}));
  VisibilityRequest unknown;
  unknown.observers = {1, 99};
  const VisibilityResult u = world.VisibleSets(unknown);
  ASSERT_EQ(u.sets.size(), 2u);
  EXPECT_TRUE(u.sets[0].found);
  EXPECT_FALSE(u.sets[1].found);
  std::vector<Violation> settings;
  WorldSettings s;
  s.visibility.voxel_size = 0;
  s.visibility.max_voxels = 0;
  EXPECT_FALSE(ValidateSettings(s, settings));
  ASSERT_EQ(settings.size(), 2u);
  EXPECT_EQ(settings[0].field, "visibility.voxel_size");
  EXPECT_EQ(settings[1].field, "visibility.max_voxels");
}

// Whether some segment from `eye` to a 9 x 9 grid on a face of `target`
// meets no triangle of `mesh`.
bool SeenByRays(const TriangleMesh& mesh, const Vec3& eye, const Aabb& target) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < 9; ++i) {
        for (int j = 0; j < 9; ++j) {
          Vec3 q;
          q[axis] = side == 0 ? target.min[axis] : target.max[axis];
          const int u = (axis + 1) % 3, v = (axis + 2) % 3;
          q[u] = target.min[u] + (target.max[u] - target.min[u]) * i / 8;
          q[v] = target.min[v] + (target.max[v] - target.min[v]) * j / 8;
          const double length = Length(q - eye);
          if (!RayBlocked(mesh, Ray{eye, (q - eye) / length, length})) return true;
        }
      }
    }
  }
  return false;
}

// reuse_ticks: players walking around the seamed wall's ends, one leaving
// and one joining halfway. The world that reuses answers against one that
// judges every pair at every call: it hides only pairs no ray sees, and a
// pair the other hid at each of the last reuse_ticks ticks it hides too (a
// target stops being sent at most reuse_ticks ticks late).
TEST(WorldVisibility, ReusedAnswersAreVisibleOnlyAndAtMostReuseTicksLate) {
  constexpr int kReuse = 4, kTicks = 80, kPlayers = 8;
  WorldSettings reusing = Occluding();
  reusing.visibility.reuse_ticks = kReuse;
  World world(reusing, Level());
  World fresh(Occluding(), Level());
  MeshData walls;  // the reference: Level()'s boxes and OBB as triangles
  AddBox(walls, {100, -200, 0}, {132, 200, 200});
  AddBox(walls, {-300, 384, 0}, {300, 416, 200});
  const TriangleMesh reference(std::move(walls));
  // Player p at x (rooms on both sides of the wall), walking along y
  // between -320 and 320 at 6 units a tick, back and forth.
  const auto feet = [](std::int64_t id, std::int64_t tick) {
    const double x =
        id % 2 == 0 ? -40.0 - 30.0 * static_cast<double>(id) : 180.0 + 30.0 * static_cast<double>(id);
    const double run = std::fmod(6.0 * static_cast<double>(tick) + 97.0 * static_cast<double>(id), 1280.0);
    return Vec3{x, run < 640 ? run - 320 : 960 - run, 0};
  };
  std::map<std::pair<std::int64_t, std::int64_t>, int>
      fresh_hidden_run;  // ticks in a row the fresh world hid it
  std::int64_t reused = 0, hidden = 0, late = 0;
  for (std::int64_t tick = 1; tick <= kTicks; ++tick) {
    Frame frame{tick, {}, {}};
    for (std::int64_t id = 1; id <= kPlayers + 1; ++id) {
      // Player 3 leaves at tick 40; player 9 joins then.
      if ((id == 3 && tick >= 40) || (id == kPlayers + 1 && tick < 40)) continue;
      frame.bodies.push_back(Player(id, feet(id, tick)));
    }
    if (tick == 40) frame.removals = {3};
    ASSERT_TRUE(world.PushFrame(frame).ok());
    ASSERT_TRUE(fresh.PushFrame(frame).ok());
    VisibilityRequest request;
    request.tick_seconds = 1.0 / 64;
    const VisibilityResult r = world.VisibleSets(request);
    const VisibilityResult f = fresh.VisibleSets(request);
    ASSERT_TRUE(r.valid);
    ASSERT_EQ(r.sets.size(), f.sets.size());
    EXPECT_EQ(f.reused, 0);
    reused += r.reused;
    for (std::size_t s = 0; s < r.sets.size(); ++s) {
      const std::int64_t o = r.sets[s].observer;
      ASSERT_EQ(f.sets[s].observer, o);
      for (const BodyUpdate& target : frame.bodies) {
        const std::int64_t t = target.id;
        if (t == o) continue;
        const bool r_hidden = !std::binary_search(r.sets[s].visible.begin(), r.sets[s].visible.end(), t);
        const bool f_hidden = !std::binary_search(f.sets[s].visible.begin(), f.sets[s].visible.end(), t);
        int& run = fresh_hidden_run[{o, t}];
        run = f_hidden ? run + 1 : 0;
        if (r_hidden) {
          ++hidden;
          const Vec3 at = feet(t, tick);
          EXPECT_FALSE(SeenByRays(reference, feet(o, tick) + Vec3{0, 0, 50},
                                  {at - Vec3{16, 16, 0}, at + Vec3{16, 16, 56}}))
              << "tick " << tick << ": " << o << " sees " << t << ", judged hidden";
        } else if (run >= kReuse) {
          ++late;
          ADD_FAILURE() << "tick " << tick << ": " << o << " -> " << t << " hidden by the fresh world for "
                        << run << " ticks, still visible";
        }
      }
    }
  }
  EXPECT_EQ(late, 0);
  // Answers were reused, and walls still hid pairs.
  EXPECT_GT(reused, kTicks * 4);
  EXPECT_GT(hidden, kTicks * 4);
  std::vector<Violation> problems;
  reusing.visibility.reuse_ticks = 65;
  EXPECT_FALSE(ValidateSettings(reusing, problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].field, "visibility.reuse_ticks");
}

// Random walls: boxes on a grid (often touching: seams) and rotated OBBs;
// random eyes and targets outside them.
TEST(WorldVisibility, RandomWallsNeverHideAVisibleTarget) {
  std::mt19937_64 rng(37);
  const auto uniform = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  int hidden = 0;
  for (int level = 0; level < CaseCount(20); ++level) {
    MeshData mesh;
    std::vector<StaticElement> statics;
    std::vector<Aabb> boxes;
    for (int i = 0; i < 12; ++i) {
      const Vec3 lo{std::floor(uniform(0, 28)) * 16, std::floor(uniform(0, 28)) * 16, 0};
      const Vec3 size{std::floor(uniform(1, 4)) * 16, std::floor(uniform(1, 12)) * 16,
                      std::floor(uniform(2, 8)) * 16};
      AddBox(mesh, lo, lo + size);
      boxes.push_back({lo, lo + size});
    }
    auto occluder = std::make_shared<const TriangleMesh>(MeshData(mesh));
    statics.push_back({1, 1, occluder});
    const double yaw = uniform(0, 3);
    const Obb obb = Obb::FromQuat({uniform(0, 448), uniform(0, 448), 64},
                                  Quat{std::cos(yaw / 2), 0, 0, std::sin(yaw / 2)},
                                  {uniform(16, 120), uniform(8, 24), 64});
    statics.push_back({2, 1, Shape{obb}});
    World world(Occluding(), statics);
    // The reference: the box meshes and the OBB as one triangle mesh.
    MeshData all = mesh;
    {
      const auto base = static_cast<std::uint32_t>(all.vertices.size());
      MeshData unit;
      AddBox(unit, -obb.half_extents, obb.half_extents);
      for (const Vec3& v : unit.vertices) all.vertices.push_back(obb.center + obb.rotation * v);
      for (const TriangleIndices& t : unit.triangles)
        all.triangles.push_back({base + t[0], base + t[1], base + t[2]});
    }
    const TriangleMesh reference(std::move(all));
    const auto inside_any = [&](const Aabb& b) {
      for (const Aabb& w : boxes) {
        if (b.min.x < w.max.x && b.max.x > w.min.x && b.min.y < w.max.y && b.max.y > w.min.y) return true;
      }
      return QueryMesh(QueryLevel::kIntersect, b, reference).result.hit;
    };
    Frame frame{1, {}, {}};
    std::vector<Aabb> regions;
    std::vector<Vec3> eyes;
    while (frame.bodies.size() < 16) {
      const Vec3 feet{uniform(-32, 512), uniform(-32, 512), 0};
      const Aabb box{feet - Vec3{16, 16, 0}, feet + Vec3{16, 16, 56}};
      if (inside_any(box)) continue;
      frame.bodies.push_back(Player(static_cast<std::int64_t>(frame.bodies.size()) + 1, feet));
      regions.push_back(box);
      eyes.push_back(feet + Vec3{0, 0, 50});
    }
    ASSERT_TRUE(world.PushFrame(frame).ok());
    const VisibilityResult r = world.VisibleSets({});
    for (const VisibilitySet& set : r.sets) {
      for (std::int64_t t = 1; t <= 16; ++t) {
        if (t == set.observer || std::binary_search(set.visible.begin(), set.visible.end(), t)) continue;
        ++hidden;
        ASSERT_FALSE(SeenByRays(reference, eyes[set.observer - 1], regions[t - 1]))
            << "level " << level << ": observer " << set.observer << " sees " << t;
      }
    }
  }
  // A rule that hides nothing would pass the loop above: the walls hide some.
  EXPECT_GT(hidden, CaseCount(20) * 10);
  std::printf("%d hidden pairs, each against %d rays\n", hidden, 6 * 9 * 9);
}

}  // namespace
}  // namespace collide
