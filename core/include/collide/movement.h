// The movement model a move may be judged against (issue 31; docs/moves.md):
// what a player under a game's rules could do in a move's elapsed time. Off
// by default (WorldSettings::movement unset): a move is then the straight
// sweep of world.h and every verdict keeps its meaning.
//
// With a model, a move is judged in this order (the first rule broken is the
// code): its stance (INVALID), the horizontal speed (TOO_FAST_HORIZONTAL),
// the vertical speed (TOO_FAST_VERTICAL), the start pose
// (START_PENETRATING), the path (BLOCKED, or STEP_TOO_HIGH where only a
// higher step than step_height would pass), then the vertical envelope when
// airborne_envelope is on (FLYING, TOO_STEEP, TOO_FAST_VERTICAL):
// - Ground. A body is grounded where the bounding boxes of its movement
//   shapes moved down by ground_probe touch a static whose surface normal
//   has up-component >= walkable_normal_z (Quake's PM_GroundTrace: 0.25
//   units, normal z >= 0.7); checked at every move's start and end.
// - Path. The straight sweep from `from` to `to`; if it is blocked and the
//   rise is at most step_height, the step path (up, across, down onto `to`:
//   Quake's PM_StepSlideMove, Unreal's StepUp) or up to three slides;
//   higher, from ground to ground, stairs (the ground under the path rises
//   by at most a step at a time), else a jump's path (up, across, down);
//   else the game's frames walked (16 ms step-slide moves heading for `to`)
//   ending within tolerance of it.
// - Speeds. Horizontal |to - from| in the plane: grounded, at most the
//   stance's ground speed (max_speed x sqrt(ground_accelerate /
//   ground_friction): a player turning as it runs), or a faster speed the
//   body carries from a landing or a stance change, decaying; airborne,
//   air_speed or what it carries plus air_acceleration. The tolerance is a
//   total over the body's moves. Vertical: a rise beyond what a step, the
//   slope and a jump allow, or a drop beyond a fall at max_fall_speed, is
//   TOO_FAST_VERTICAL.
// - Envelope. Once airborne (a jump, a step off a ledge, at any time within
//   a move), the body follows z(t) = z0 + v0 t - g t^2 / 2 (falling no
//   faster than max_fall_speed) for a take-off speed v0 in an interval that
//   each airborne move narrows, within tolerance, kept per body in the
//   World. Above every arc is FLYING (TOO_STEEP on a surface too steep to
//   walk) unless the body could have landed and jumped again within the
//   move (on ground under from, the middle or `to`, or where a walk of the
//   game's frames on the lowest arc lands), or it slides on a steep surface (a slower fall, once per slide);
//   below every arc is TOO_FAST_VERTICAL unless something static is near
//   that it could have met (the arc restarts there). A landing may be up to
//   step_height above the arc. Grounded again, the arc ends.
// - State. It restarts when the body teleported since its last move, and
//   after a rejected move whose body was not put where the verdict said.
#ifndef COLLIDE_MOVEMENT_H_
#define COLLIDE_MOVEMENT_H_

#include <vector>

#include "collide/shapes.h"
#include "collide/validate.h"

namespace collide {

// A movement shape and speed per stance (standing, crouched, ...).
struct Stance {
  Shape shape;             // body frame: a part kind, usually a box or capsule.
  double max_speed = 0.0;  // horizontal ground speed, length units per second.
};

// Lengths in the world's unit, speeds per second; "up" is +z.
struct MovementModel {
  std::vector<Stance> stances;  // a move names its stance by index; at least one.
  double air_speed = 0.0;       // horizontal speed limit of a move starting airborne.
  // Length per second^2: how fast strafing in the air may raise horizontal
  // speed above air_speed (Quake: pm_airaccelerate 1 x 320 = 320); 0:
  // air_speed is a cap.
  double air_acceleration = 0.0;
  double gravity = 0.0;            // downward acceleration, > 0.
  double jump_speed = 0.0;         // upward take-off speed of a jump.
  double max_fall_speed = 0.0;     // terminal downward speed, > 0.
  double step_height = 0.0;        // highest step walked up or down.
  double walkable_normal_z = 0.7;  // in (0, 1]: flatter surfaces are ground.
  double ground_probe = 0.25;      // how far below the shape ground is found.
  double tolerance = 1.0;          // length: position slack of the arcs, steps and speeds.
  double ground_friction = 6.0;    // 1/s: how fast speed above the ground speed decays on the ground.
  // 1/s, Quake's pm_accelerate: a player turning as it runs holds up to
  // max_speed * sqrt(ground_accelerate / ground_friction) on the ground; 0:
  // the stance's max_speed caps ground speed (the game clamps, as Unreal).
  double ground_accelerate = 0.0;
  bool airborne_envelope = true;  // judge airborne moves against the jump/fall arc.

  // Quake 3 (bg_pmove.c, bg_local.h, g_active.c defaults): speed 320 (x0.25
  // crouched), gravity 800, jump 270, step 18, normal z >= 0.7, box
  // -15..15 x -15..15 x -24..32, crouched top 16; air speed 640 gaining
  // 320 per second; friction 6, accelerate 10.
  static MovementModel Quake();
  // Source (HL2/CS:S convars): sv_maxspeed 320 (crouched x1/3), sv_gravity
  // 800, jump sqrt(2 * 800 * 45) = 268.33, sv_stepsize 18,
  // sv_standable_normal 0.7, sv_maxvelocity 3500, hull 32 x 32 x 72
  // (crouched 36) with the origin at the feet; air speed 640; sv_friction 4.
  static MovementModel Source();
  // Unreal's CharacterMovementComponent defaults (cm): MaxWalkSpeed 600,
  // MaxWalkSpeedCrouched 300, GravityZ -980, JumpZVelocity 420,
  // MaxStepHeight 45, WalkableFloorZ 0.71 (44.765 degrees), capsule radius 34
  // half height 88 (crouched 40), TerminalVelocity 4000, MAX_FLOOR_DIST 2.4;
  // air speed 600; GroundFriction 8.
  static MovementModel Unreal();
};

// A budget across each body's moves (like Unreal's client-time discrepancy
// check, AGameNetworkManager::MovementTimeDiscrepancy*): over a sliding
// window of the server's latest `window` seconds of ticks, the elapsed time a
// body's OK moves claim may exceed the server time they cover by at most
// time_slack (TIME_BUDGET), and their horizontal distance may exceed
// max_speed times that server time by at most distance_slack
// (DISTANCE_BUDGET): a speed hack cut into many small moves, each under the
// per-move limit, is caught as one. A move validated when the latest frame is
// tick L covers ticks (L - 1, L]; a body's window starts at the first tick it
// was judged in. Only OK moves count; a move the budget rejects is not
// counted (its distance is where the server puts the body back from).
struct MoveBudget {
  double tick_seconds = 0.0;    // the server's tick length, > 0.
  double window = 1.0;          // seconds of server time, >= tick_seconds.
  double max_speed = 0.0;       // horizontal, length units per second.
  double time_slack = 0.05;     // seconds: jitter and clock drift forgiven.
  double distance_slack = 0.0;  // length units: a dash's overshoot forgiven.
};
bool ValidateMoveBudget(const MoveBudget& budget, std::string_view path, std::vector<Violation>& out);

// Appends a Violation per bad field ("movement.gravity", ... under `path`).
bool ValidateMovementModel(const MovementModel& model, std::string_view path, std::vector<Violation>& out);

}  // namespace collide

#endif  // COLLIDE_MOVEMENT_H_
