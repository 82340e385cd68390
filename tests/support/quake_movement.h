// A Quake-3-style player movement of our own on a collide TriangleMesh: the
// rules of ioquake3's code/game/bg_pmove.c and bg_slidemove.c (PM_GroundTrace,
// PM_Friction, PM_Accelerate, PM_WalkMove, PM_AirMove, PM_CheckJump,
// PM_CheckDuck, PM_SlideMove, PM_StepSlideMove), written anew, without water,
// ladders, knockback, pm_time or the 0.125-unit snapping. Traces are exact
// box sweeps (collide::ShapeCast against the mesh) that stop kTraceGap short
// of the contact plane, as the game's DIST_EPSILON does. Used to make a
// corpus of legitimate movement for the move verdicts (issue 31,
// docs/move-corpus.md).
#ifndef COLLIDE_TESTS_SUPPORT_QUAKE_MOVEMENT_H_
#define COLLIDE_TESTS_SUPPORT_QUAKE_MOVEMENT_H_

#include <cstdint>

#include "collide/math.h"
#include "collide/mesh.h"
#include "collide/shapes.h"

namespace collide::testing {

// The game's numbers (bg_pmove.c, bg_public.h, g_active.c / g_client.c).
struct QuakeMovementParams {
  Vec3 mins{-15, -15, -24};
  Vec3 maxs{15, 15, 32};
  double crouch_maxs_z = 16.0;
  double speed = 320.0;  // g_speed
  double crouch_scale = 0.25;
  double accelerate = 10.0;
  double air_accelerate = 1.0;
  double friction = 6.0;
  double stop_speed = 100.0;
  double gravity = 800.0;  // g_gravity
  double jump_velocity = 270.0;
  double step_size = 18.0;
  double min_walk_normal = 0.7;
  double overclip = 1.001;
};

// DIST_EPSILON of the game's traces (cm_local.h): the gap a trace keeps
// before the plane it stops at.
inline constexpr double kTraceGap = 0.03125;

// One client command (usercmd_t): moves in [-127, 127], yaw in radians.
struct QuakeCommand {
  double forward = 0.0;
  double side = 0.0;  // > 0: to the right.
  double yaw = 0.0;
  bool jump = false;
  bool crouch = false;
  double seconds = 0.016;  // the command's msec / 1000.
};

struct QuakePlayer {
  Vec3 origin;
  Vec3 velocity;
  bool crouched = false;
  bool on_ground = false;  // walking: on a plane with normal z >= min_walk_normal.
  Vec3 ground_normal;      // when on_ground.
  bool jump_held = false;  // PMF_JUMP_HELD: jump must be released between jumps.
  // Counters of what the moves did (for tests that the corpus covers them).
  std::int64_t step_ups = 0;  // walking moves lifted by a step (> 2 units, the game's EV_STEP).
  std::int64_t jumps = 0;
  std::int64_t unstuck = 0;  // start overlaps pushed out (PM_CorrectAllSolid's job).
};

// The player's box at `origin`.
Aabb PlayerBox(const QuakeMovementParams& params, const Vec3& origin, bool crouched);

// A trace of the player's box from start to end (trace_t): fraction of the
// way, where it stopped (kTraceGap before the contact plane) and that
// plane's normal, facing the player.
struct QuakeTrace {
  double fraction = 1.0;
  Vec3 end;
  Vec3 normal;
  bool start_solid = false;  // the box overlaps the mesh at start.
};
QuakeTrace TraceBox(const TriangleMesh& mesh, const Aabb& box_at_start, const Vec3& start, const Vec3& end);

// Runs one command (Pmove with one PmoveSingle).
void QuakeMove(const TriangleMesh& mesh, const QuakeMovementParams& params, const QuakeCommand& cmd,
               QuakePlayer& player);

}  // namespace collide::testing

#endif  // COLLIDE_TESTS_SUPPORT_QUAKE_MOVEMENT_H_
