// Melee verdicts (docs/projectiles.md): a reach check at a past time, a
// swept arc or a swept capsule against the bodies as rewound, walls and
// other bodies between the attacker's eye and the hit blocking it.
//
// Decisions this header makes:
// - The arc is a flat sector around the attacker's eye at the time used,
//   in the plane through it perpendicular to `up`: radius `radius`, opening
//   `angle` (radians) centred on `direction` projected on that plane. It is
//   covered conservatively by a fan of triangles of at most 5 degrees whose
//   outer edges are tangent to the arc: the reach is exact along each
//   triangle's middle and at most radius * (1 / cos(2.5 deg) - 1) (0.1 %)
//   longer at its corners.
// - The sweep is a capsule moved from `from` to `to` (attacker's body frame
//   at the time used) with its segment's ends moving straight: it reaches
//   every point within its radius of the convex hull of the four ends
//   (exact for a flat swing, whose ends are coplanar, conservative for a
//   twisted one).
// - A part is reached when it comes within `tolerance` of the volume (the
//   claimed body's parts only, as a shot's tolerance) or touches it (others);
//   its hit point is the point of the part nearest the volume (inside both
//   when they overlap). The segment from the attacker's eye to that point
//   must be clear: a static on it blocks (BLOCKED), a part of another body
//   (not the attacker, not the target) too (HIT_OTHER_BODY).
// - Codes (ShotCode): INVALID, IN_THE_FUTURE, REWIND_TOO_OLD (or clamped),
//   UNKNOWN_SHOOTER (the attacker at the time used), UNKNOWN_TARGET, then
//   with a claim: CONFIRMED (the claimed part reached, clear), HIT_OTHER_PART
//   (another of its parts reached, clear), BLOCKED / HIT_OTHER_BODY (reached
//   but every line blocked: by what blocks the claimed part's, else the
//   nearest's), MISSED (not reached; claim_miss_distance set). Without a
//   claim: CONFIRMED when a part is reached clear, BLOCKED when parts are
//   reached but none clear, MISSED when none.
#ifndef COLLIDE_MELEE_H_
#define COLLIDE_MELEE_H_

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "collide/world.h"

namespace collide {

// A horizontal (or any-plane) swing: see above.
struct MeleeArc {
  Vec3 direction;       // world frame, not parallel to `up`.
  Vec3 up;              // world frame, non-zero: the sector's plane normal.
  double radius = 0.0;  // > 0, length units from the eye.
  double angle = 0.0;   // (0, 2 pi], radians: the full opening.
};
// A weapon swung straight from one pose to another.
struct MeleeSweep {
  Capsule from;  // attacker's body frame at the time used.
  Capsule to;    // same radius as `from`.
};

struct MeleeRequest {
  std::int64_t attacker = 0;  // never reached by its own swing.
  std::optional<Time> at;     // the time the attacker saw (a shot's `at`).
  std::variant<MeleeArc, MeleeSweep> reach;
  std::optional<ShotClaim> claim;
  double tolerance = 0.0;              // >= 0: the claimed body's parts count within this distance.
  CategoryMask mask = kAllCategories;  // as a shot's (and WorldSettings::shot_mask).
  std::vector<std::int64_t> ignored_bodies;
};

struct MeleeHit {
  HitTarget target;       // a body part.
  Vec3 point;             // on the part, world frame.
  double distance = 0.0;  // from the attacker's eye to `point`.
  friend bool operator==(const MeleeHit&, const MeleeHit&) = default;
};

struct MeleeVerdict {
  ShotCode code = ShotCode::kMissed;
  std::vector<Violation> problems;  // kInvalid only.
  TimeUsed time;
  Vec3 eye;  // the attacker's eye at the time used (world frame).
  // Every part reached with a clear line from the eye, by distance then
  // TargetLess.
  std::vector<MeleeHit> hits;
  // BLOCKED / HIT_OTHER_BODY: the first static or body part on the line.
  std::optional<WorldRayHit> blocker;
  // A claim not reached: the distance from the volume to the claimed part;
  // -1 otherwise.
  double claim_miss_distance = -1.0;
};

}  // namespace collide

#endif  // COLLIDE_MELEE_H_
