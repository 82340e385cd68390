// The corpus's Quake-style movement (tests/support/quake_movement) on small
// synthetic levels, against what the game's rules give in closed form: the
// run and crouch speed caps, the jump's apex (v^2 / 2g) and air time
// (2v / g), free fall, climbing an 18-unit step but not a higher wall, and
// never ending inside the geometry.
#include "support/quake_movement.h"

#include <gtest/gtest.h>

#include <cmath>

#include "collide/query.h"

namespace collide::testing {
namespace {

// Appends the 12 triangles of an axis-aligned box.
void AddBox(MeshData& mesh, const Aabb& b) {
  const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
  for (int k = 0; k < 8; ++k) {
    mesh.vertices.push_back(
        {k & 1 ? b.max.x : b.min.x, k & 2 ? b.max.y : b.min.y, k & 4 ? b.max.z : b.min.z});
  }
  constexpr std::uint32_t kFaces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                          {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : kFaces) {
    mesh.triangles.push_back({base + f[0], base + f[1], base + f[2]});
    mesh.triangles.push_back({base + f[0], base + f[2], base + f[3]});
  }
}

// A floor with its top at z = 0, and optionally a block from x = 100 on.
TriangleMesh Level(double block_height) {
  MeshData m;
  AddBox(m, {{-1000, -1000, -64}, {1000, 1000, 0}});
  if (block_height > 0) AddBox(m, {{100, -1000, 0}, {1000, 1000, block_height}});
  return TriangleMesh(std::move(m));
}

constexpr double kStandZ = 24 + kTraceGap;  // origin of a player resting on the floor

struct Player {
  const TriangleMesh& mesh;
  QuakeMovementParams params;
  QuakePlayer player;
  double max_z = -kInfinity;
  double deepest = 0;  // overlap of the box with the mesh over the run
  int airborne_commands = 0;

  void Commands(int n, QuakeCommand cmd) {
    for (int k = 0; k < n; ++k) {
      QuakeMove(mesh, params, cmd, player);
      cmd.jump = false;
      max_z = std::max(max_z, player.origin.z);
      airborne_commands += !player.on_ground;
      const MeshPairResult c =
          QueryMesh(QueryLevel::kContact, PlayerBox(params, player.origin, player.crouched), mesh);
      if (c.found) deepest = std::max(deepest, -c.result.distance);
    }
  }
};

QuakeCommand Forward() {
  QuakeCommand c;
  c.forward = 127;
  c.seconds = 0.008;
  return c;
}

TEST(QuakeMovementTest, RunsAtTheSpeedCapAndCrouchesAtAQuarter) {
  const TriangleMesh mesh = Level(0);
  Player run{mesh, {}, {}};
  run.player.origin = {0, 0, kStandZ};
  run.Commands(250, Forward());  // 2 s
  EXPECT_TRUE(run.player.on_ground);
  EXPECT_NEAR(run.player.velocity.x, 320, 1e-6);
  EXPECT_NEAR(run.player.origin.z, kStandZ, 1e-9);
  QuakeCommand crouch = Forward();
  crouch.crouch = true;
  run.Commands(250, crouch);
  EXPECT_TRUE(run.player.crouched);
  EXPECT_NEAR(run.player.velocity.x, 80, 1e-6);
  EXPECT_EQ(run.deepest, 0);
}

TEST(QuakeMovementTest, JumpReachesTheApexAndLandsAfterTwoVOverG) {
  const TriangleMesh mesh = Level(0);
  Player run{mesh, {}, {}};
  run.player.origin = {0, 0, kStandZ};
  run.Commands(1, QuakeCommand{});  // find the ground
  QuakeCommand jump;
  jump.jump = true;
  jump.seconds = 0.008;
  run.Commands(125, jump);  // 1 s: the jump takes 2 * 270 / 800 = 0.675 s
  // Half the gravity before and half after each slide: the exact parabola.
  EXPECT_NEAR(run.max_z - kStandZ, 270.0 * 270.0 / (2 * 800), 0.5);
  EXPECT_EQ(run.player.jumps, 1);
  EXPECT_NEAR(run.airborne_commands * 0.008, 0.675, 0.02);
  EXPECT_TRUE(run.player.on_ground);
  EXPECT_EQ(run.deepest, 0);
}

TEST(QuakeMovementTest, FallsAtGravity) {
  const TriangleMesh mesh = Level(0);
  Player run{mesh, {}, {}};
  run.player.origin = {0, 0, 1000};
  run.Commands(50, QuakeCommand{.seconds = 0.008});  // 0.4 s
  EXPECT_FALSE(run.player.on_ground);
  EXPECT_NEAR(run.player.velocity.z, -800 * 0.4, 1e-6);
  EXPECT_NEAR(run.player.origin.z, 1000 - 0.5 * 800 * 0.4 * 0.4, 1e-6);
}

TEST(QuakeMovementTest, ClimbsAStepButNotAWall) {
  for (const double height : {16.0, 18.0, 19.0, 40.0}) {
    SCOPED_TRACE(height);
    const TriangleMesh mesh = Level(height);
    Player run{mesh, {}, {}};
    run.player.origin = {0, 0, kStandZ};
    run.Commands(250, Forward());  // 2 s towards x = 100
    EXPECT_EQ(run.deepest, 0);
    EXPECT_TRUE(run.player.on_ground);
    if (height <= run.params.step_size) {
      EXPECT_GE(run.player.step_ups, 1);
      EXPECT_NEAR(run.player.origin.z, height + kStandZ, 1e-6);
      EXPECT_GT(run.player.origin.x, 300);
    } else {
      EXPECT_EQ(run.player.step_ups, 0);
      EXPECT_NEAR(run.player.origin.z, kStandZ, 1e-6);
      // The trace gap from the wall, give or take what overclip (1.001)
      // pushes the velocity out each command.
      EXPECT_NEAR(run.player.origin.x, 100 - 15 - kTraceGap, 1e-3);
    }
  }
}

}  // namespace
}  // namespace collide::testing
