// Projectile verdicts (docs/projectiles.md): a projectile launched at a past
// time, judged along its closed-form flight against the statics and against
// the bodies as the history moves them, with the same rewind rules as shots.
//
// Decisions this header makes:
// - Flight. dv/dt = gravity - drag * v (linear drag): p(t) = p0 + v0 t
//   phi1(k t) + g t^2 phi2(k t), v(t) = v0 e^{-k t} + g t phi1(k t), with
//   phi1(x) = (1 - e^{-x}) / x and phi2(x) = (x - 1 + e^{-x}) / x^2 (both
//   -> 1 and 1/2 as x -> 0: drag 0 is p0 + v0 t + g t^2 / 2).
// - Time. Seconds since launch map to world time by tick_seconds (a field
//   of the request: the game's tick interval, which the world does not
//   know): at + seconds / tick_seconds ticks.
// - Sub-steps. The flight is cut into chords no longer in time than
//   sqrt(8 chord_tolerance / |a|), |a| the acceleration at the chord's
//   start (it only decays along a drag-free or drag flight between bounces),
//   so that the curve stays within chord_tolerance of the chord (the linear
//   interpolation error |a| h^2 / 8). Each chord is cut again where a frame
//   lies, where the bodies' interpolation changes. The projectile is swept
//   along the chord as a sphere of radius + chord_tolerance with exact
//   sweeps (ShapeCast) against static triangles and primitives, and as a
//   sphere of radius + 2 chord_tolerance against each body part in the
//   part's own frame: the chord's ends taken into the part's frame at the
//   sub-step's ends, exact for parts that translate; a turning part's
//   sub-step is cut into pieces whose relative chords stay within
//   chord_tolerance of the relative arc (up to 64 pieces: moving_cast.h).
// - Accuracy contract. No tunnelling: whatever the curve's sphere of
//   `radius` touches, the swept sphere touches no later. The reported time
//   is at most the true first contact, and at the reported time the true
//   projectile is within radius + 2 chord_tolerance of the static, or
//   radius + 3 chord_tolerance of the body part, it hit (a graze within
//   chord_tolerance, 2 for a part, counts: it favours the shooter by at
//   most that much, as a shot's tolerance does).
// - Bounces. A static met with bounces left reflects the velocity about the
//   contact normal n: v' = v - (1 + e)(v . n) n (tangential kept, normal
//   scaled by the restitution e), and the flight restarts from the point of
//   contact; a body met always stops it. With no bounce left a static stops
//   it (BLOCKED).
// - The latest frame. A flight is judged only up to the latest frame: one
//   still in the air then is IN_FLIGHT with its position and velocity at
//   that time; ask again with the same launch next tick.
// - Checks, in order: the request (INVALID), the launch time as a shot's
//   `at` (IN_THE_FUTURE, REWIND_TOO_OLD or clamped under clamp_old_shots),
//   the shooter at the launch time (UNKNOWN_SHOOTER), the shooter at
//   command_at, the latest frame by default (UNKNOWN_SHOOTER), the origin
//   against the shooter's eye then as a shot's (ORIGIN_IMPLAUSIBLE beyond
//   max_origin_offset plus the motion of its eye over the tick before, none
//   across a teleport), the claimed body and part at the launch time
//   (UNKNOWN_TARGET; INVALID outside the mask). The shooter is never hit.
//   A flight asked about again on later ticks keeps its command_at: the
//   default, the latest frame, moves on with the shooter.
#ifndef COLLIDE_PROJECTILE_H_
#define COLLIDE_PROJECTILE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "collide/world.h"

namespace collide {

enum class ProjectileCode : std::uint8_t {
  kConfirmed,     // the claimed part was hit first (no claim: a body part was hit).
  kHitOtherPart,  // another part of the claimed body first.
  kHitOtherBody,  // another body first.
  kBlocked,       // a static stopped it (no bounce left).
  kMissed,        // the time limit came with nothing hit.
  kInFlight,      // still flying at the latest frame: judged up to it.
  kRewindTooOld,
  kInTheFuture,
  kUnknownShooter,
  kUnknownTarget,
  kInvalid,            // bad fields: `problems`.
  kOriginImplausible,  // the origin is too far from the shooter's eye at command_at.
};
std::string_view ProjectileCodeName(ProjectileCode code);  // "CONFIRMED", ...

// The flight limits the request is checked against.
inline constexpr int kMaxProjectileBounces = 64;
inline constexpr double kMaxProjectileSeconds = 600.0;
// Sub-steps one flight may take (a flight is judged up to the latest frame
// only: 16,384 chords cover 32 s of a grenade at the default tolerance in
// Quake units); past them, or with a step too short to advance the time,
// it is INVALID ("time_limit").
inline constexpr int kMaxProjectileSteps = 1 << 14;

struct ProjectileRequest {
  std::int64_t shooter = 0;            // never hit by its projectile.
  std::optional<Time> at;              // the launch as the shooter saw it (a shot's `at`).
  Vec3 origin;                         // the centre at launch, world frame.
  Vec3 velocity;                       // length units / s.
  Vec3 gravity;                        // length units / s^2 (e.g. {0, 0, -9.81}).
  double drag = 0.0;                   // k >= 0, 1/s: dv/dt = gravity - k v.
  double radius = 0.0;                 // >= 0: a sphere, or 0: a point.
  double restitution = 0.0;            // e in [0, 1]: the normal speed kept by a bounce.
  int max_bounces = 0;                 // in [0, kMaxProjectileBounces]: statics it bounces off.
  double time_limit = 0.0;             // seconds, in (0, kMaxProjectileSeconds].
  double tick_seconds = 0.0;           // > 0: the world's tick length.
  double chord_tolerance = 0.01;       // > 0, length units: the accuracy contract above.
  std::optional<ShotClaim> claim;      // the body part the client says it hit.
  CategoryMask mask = kAllCategories;  // as a shot's (and WorldSettings::shot_mask).
  std::vector<std::int64_t> ignored_bodies;
  // Where the server knows the shooter: the time of the launch command
  // (default: the latest frame); the origin is checked against the
  // shooter's eye then (ShotRequest::command_at).
  std::optional<Time> command_at;
};

// Where the projectile met something.
struct ProjectileContact {
  double seconds = 0.0;  // since launch.
  Time at;               // the world time then.
  Vec3 position;         // the projectile's centre then (on its curve).
  Vec3 point;            // the contact point, world frame.
  Vec3 normal;           // unit, from the projectile towards what it met.
  HitTarget target;      // a static (and triangle) or a body part as posed then.
  friend bool operator==(const ProjectileContact&, const ProjectileContact&) = default;
};

struct ProjectileVerdict {
  ProjectileCode code = ProjectileCode::kMissed;
  std::vector<Violation> problems;         // kInvalid only.
  TimeUsed time;                           // the launch time used.
  std::optional<ProjectileContact> hit;    // what stopped it: a body part, or a static.
  std::vector<ProjectileContact> bounces;  // in order.
  // The end of the judged flight: the hit, the time limit, or the latest
  // frame (kInFlight), and the projectile's state then.
  double seconds = 0.0;
  Time end_at;
  Vec3 position;
  Vec3 velocity;
  // |origin - the shooter's eye at command_at|, when known, and the offset
  // allowed (ShotVerdict's).
  double origin_offset = 0.0;
  double origin_allowance = 0.0;
};

}  // namespace collide

#endif  // COLLIDE_PROJECTILE_H_
