// Worlds: static level geometry, dynamic bodies with a tick history, scene
// queries at a past time, and shot and move verdicts (the design is
// docs/worlds.md). Pure and deterministic: no threads, no I/O, no clock; the
// same world and the same batch give bit-identical answers however a batch is
// split. A World is not thread-safe to mutate; const queries may run
// concurrently.
//
// Decisions this header makes where the design leaves a choice:
// - Time. `at = (tick, fraction)` is the tick-time T = tick + fraction. The
//   poses used are interpolated between the latest kept frame at or before T
//   and the next kept frame (gaps are bridged: a tick with no frame lies
//   between its neighbours), with alpha = (T - t0) / (t1 - t0). Position:
//   linear. Rotation: normalized lerp along the shortest arc (the second
//   quaternion's sign flipped when the dot product is negative), in that
//   order of operations, so it is bit-for-bit deterministic; nlerp differs
//   from slerp by under 0.1 degree for the <= 30 degree turns of one tick.
//   Part-local poses are interpolated likewise when both frames hold the same
//   part set (same ids in the same order); otherwise the earlier frame's part
//   set and part poses are used (a crouch is rewound with the hitboxes of
//   the frame at or before T).
// - Existence. A body exists at T when it is in the frame at or before T. A
//   body removed in the next frame stays at its last pose until that frame; a
//   body added in the next frame does not exist before it. A body marked
//   teleported in the next frame stays at its old pose until that frame (no
//   interpolation across the jump); with max_tick_distance > 0 a body moving
//   farther than that per tick is marked so (the teleport guard).
// - Clamping. T before the oldest kept frame is clamped to it, T after the
//   latest frame to the latest frame; `clamped` says so and `used` gives the
//   time used. Unset time = the latest frame. A world with no frame has no
//   bodies; its time used is (0, 0).
// - Parts are sphere, capsule, segment, point, triangle, aabb or obb shapes in
//   the part's frame, placed in the body frame by the part's local pose (an
//   aabb becomes an obb once rotated). Convex hulls and halfspaces are not
//   accepted as parts (a hull would need its vertices re-posed per query; a
//   halfspace is unbounded); they are accepted as static elements.
// - Rotations are accepted within 1e-6 of unit length and normalised when a
//   frame is accepted: interpolation and placing see unit quaternions.
// - Moves are translations of the body position; the movement shape keeps the
//   orientation of the body's latest pose. A body without a movement shape
//   moves all its parts. Moves are checked against static elements only.
//   skin_width is a tolerance band: a start overlap up to skin_width is
//   allowed (deeper is START_PENETRATING), contacts no deeper than skin_width
//   along the move do not block (a body on a floor crosses its triangles'
//   shared edges), and a move is BLOCKED where its shape would go deeper than
//   skin_width into a static. Then `t` is the fraction of the move at the
//   first contact (signed distance 0) with that static, and
//   allowed_position is where the shape's gap to it along the contact normal
//   is skin_width (at least skin_width against an edge or a curved surface;
//   never before `from`). Sliding keeps the same gap from each plane.
// - A move with mask 0 sees WorldSettings::move_mask's statics; shots see
//   shot_mask's statics and bodies (both default to all bits).
// - With a movement model (WorldSettings::movement or the move's own), a
//   move is judged against a game's rules instead: collide/movement.h and
//   docs/moves.md. With a move budget, a body's moves are also judged
//   together over a window of ticks. The state both keep per body lives in
//   the World under its own lock: ValidateMoves stays const, and the same
//   batches in the same order give the same verdicts.
// - Shot tolerance grows the claimed body's parts only, each by a ball of
//   radius `tolerance` (the points within that distance of the part: spheres
//   and capsules by their radius, a point becomes a sphere, a segment a
//   capsule, boxes and triangles are rounded), favouring the shooter without
//   making other players bigger. The verdict does not depend on the order of
//   the parts.
// - Shot checks, in order: the request (INVALID: bad numbers, a time
//   outside the accepted ticks, a claim on the shooter's own body or an
//   ignored one), the time (IN_THE_FUTURE; VIEW_TIME_IMPLAUSIBLE when `at` is
//   farther than max_skew_ticks from expected_at; REWIND_TOO_OLD, or with
//   clamp_old_shots the time clamped to the rewind window), the shooter at
//   command_at, the latest frame by default (UNKNOWN_SHOOTER), the origin
//   against the shooter's eye then (ORIGIN_IMPLAUSIBLE beyond
//   max_origin_offset plus the motion of its eye over the tick before, none
//   across a teleport), the claimed body and part at the time used
//   (UNKNOWN_TARGET; INVALID when outside the shot's mask). Then one closest
//   ray cast through the shot's filter, never the shooter: with a claim, MISSED when
//   the ray meets no part of the claimed body (grown) within range, whatever
//   else it meets; else the first hit decides: CONFIRMED (the claimed part),
//   HIT_OTHER_PART (another part of the claimed body), HIT_OTHER_BODY
//   (another body), BLOCKED (a static). Without a claim: CONFIRMED for the
//   first body part met, BLOCKED for a static, MISSED for nothing.
// - Broadphase: each kept frame holds a bounding-volume tree over its bodies'
//   bounds across the interval to the next frame (the body's sphere around
//   its origin swept between the two positions), so a query at any kept time
//   visits only bodies near it and interpolates only those. Static elements
//   sit in a tree of their bounds built at creation (halfspaces, unbounded,
//   are tested always); a mesh has its own BVH below that.
#ifndef COLLIDE_WORLD_H_
#define COLLIDE_WORLD_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "collide/math.h"
#include "collide/mesh.h"
#include "collide/movement.h"
#include "collide/result.h"
#include "collide/shapes.h"
#include "collide/validate.h"
#include "collide/visibility.h"

namespace collide {

namespace internal {
class HistoryMemory;
struct Snapshot;
struct StaticSet;
struct SceneAccess;
class VoxelGrid;
class VisibilityMemory;
class MoveStates;
}  // namespace internal

// Declared in collide/projectile.h and collide/melee.h.
struct ProjectileRequest;
struct ProjectileVerdict;
struct MeleeRequest;
struct MeleeVerdict;

// The world's policy. Lengths are in the world's length unit (the defaults
// assume metres), speeds in length units per second.
struct WorldSettings {
  int history_ticks = 64;           // frames kept, >= 1.
  int max_rewind_ticks = 32;        // how far before the latest frame a shot may be rewound.
  double max_origin_offset = 2.0;   // a shot or projectile origin vs the shooter's eye at its command.
  double default_max_speed = 10.0;  // for moves that give none.
  double skin_width = 0.01;         // the moves' tolerance band (see above).
  int slide_iterations = 3;         // contact planes a blocked move slides along.
  // A shot older than max_rewind_ticks: false, REWIND_TOO_OLD; true, judged
  // at the oldest allowed time (time.clamped set).
  bool clamp_old_shots = false;
  // Teleport guard: a body moving farther than this per tick between two
  // frames is taken as teleported there (never interpolated across), as if
  // the frame had said so. 0: off.
  double max_tick_distance = 0.0;
  // What moves with mask 0 and what shots are judged against (not 0): with a
  // map uploaded twice, the player-collision copy's bit and the shot copy's.
  std::uint64_t move_mask = ~std::uint64_t{0};
  std::uint64_t shot_mask = ~std::uint64_t{0};
  // Moves judged against a game's movement rules (collide/movement.h);
  // unset: the straight sweep above.
  std::optional<MovementModel> movement;
  // A budget across each body's moves (collide/movement.h); unset: none.
  std::optional<MoveBudget> move_budget;
  // Occluders for visibility sets (collide/visibility.h); mask 0: none,
  // every body sees every other.
  VisibilitySettings visibility;
};
// Appends a Violation per bad setting ("history_ticks", ...).
bool ValidateSettings(const WorldSettings& settings, std::vector<Violation>& out);

using CategoryMask = std::uint64_t;
inline constexpr CategoryMask kAllCategories = ~CategoryMask{0};

// A rigid transform: world = rotation * local + position. rotation unit.
struct Pose {
  Vec3 position;
  Quat rotation;
  friend bool operator==(const Pose&, const Pose&) = default;
};
Vec3 Apply(const Pose& pose, const Vec3& local);
Pose Compose(const Pose& outer, const Pose& inner);  // outer * inner
// The part-frame shape placed by `pose` (world or body frame). For the part
// kinds (see above); other kinds are returned unchanged.
Shape PlaceShape(const Shape& local, const Pose& pose);
// The interpolation rule above, alpha in [0, 1].
Pose Interpolate(const Pose& a, const Pose& b, double alpha);

// A static element: either a primitive shape (world frame) or a mesh.
struct StaticElement {
  std::int64_t id = 0;
  CategoryMask category = kAllCategories;
  std::variant<Shape, std::shared_ptr<const TriangleMesh>> geometry;
};

struct BodyPart {
  std::int32_t id = 0;
  Shape shape;  // in the part frame.
  Pose local;   // part frame -> body frame.
};
struct PartPose {
  std::int32_t part = 0;
  Pose local;
};

// One body's entry in a frame.
struct BodyUpdate {
  std::int64_t id = 0;
  std::optional<Pose> pose;              // required for a new body.
  std::vector<BodyPart> parts;           // required for a new body; replaces the part set.
  std::vector<PartPose> part_poses;      // new local poses for listed parts.
  std::optional<Shape> movement_shape;   // body frame; set or replace.
  std::optional<CategoryMask> category;  // set or replace; new bodies default to all.
  bool teleport = false;                 // never interpolate into this pose.
  std::optional<Vec3> eye;               // body frame: where its shots start; set or replace (new: origin).
};

struct Frame {
  std::int64_t tick = 0;
  std::vector<BodyUpdate> bodies;
  std::vector<std::int64_t> removals;
};

// Ticks of frames and times lie in [-kMaxWorldTick, kMaxWorldTick], so that
// the difference of any two is an int64 (a time outside is invalid, "at.tick";
// a frame outside is rejected, "tick").
inline constexpr std::int64_t kMaxWorldTick = std::int64_t{1} << 61;

// The time of a query or verdict.
struct Time {
  std::int64_t tick = 0;
  double fraction = 0.0;  // in [0, 1).
  friend bool operator==(const Time&, const Time&) = default;
};
struct TimeUsed {
  Time used;
  bool clamped = false;
  friend bool operator==(const TimeUsed&, const TimeUsed&) = default;
};

// What a query hit: a static element (and triangle for a mesh) or a body part.
struct HitTarget {
  enum class Kind : std::uint8_t { kStatic, kBody };
  Kind kind = Kind::kStatic;
  std::int64_t id = 0;         // static element id or body id.
  std::uint32_t triangle = 0;  // mesh triangle index (0 for a primitive).
  std::int32_t part = 0;       // body part id.
  friend bool operator==(const HitTarget&, const HitTarget&) = default;
};
// Hits tie on distance in this order: statics before bodies, then by id,
// triangle, part.
bool TargetLess(const HitTarget& a, const HitTarget& b);

struct QueryFilter {
  CategoryMask mask = kAllCategories;        // targets with (category & mask) != 0.
  std::vector<std::int64_t> ignored_bodies;  // e.g. the shooter.
};

enum class RayMode : std::uint8_t { kClosest, kAny, kAll };
struct RayQuery {
  Ray ray;
  std::optional<Time> at;
  QueryFilter filter;
  RayMode mode = RayMode::kClosest;
  std::size_t max_hits = 64;  // kAll cap (the nearest are kept).
};
struct WorldRayHit {
  double distance = 0.0;
  Vec3 point;
  Vec3 normal;  // facing the ray origin for surfaces.
  HitTarget target;
  friend bool operator==(const WorldRayHit&, const WorldRayHit&) = default;
};
struct RayQueryResult {
  bool valid = true;  // false: `problems` says why; nothing else set.
  std::vector<Violation> problems;
  TimeUsed time;
  std::vector<WorldRayHit> hits;  // closest/any: at most one; all: sorted, capped.
  std::size_t total_hits = 0;     // kAll: hits before the cap.
};

struct OverlapQuery {
  Shape shape;  // world frame.
  std::optional<Time> at;
  QueryFilter filter;
  QueryLevel level = QueryLevel::kIntersect;
  std::size_t max_results = 256;
};
struct OverlapHit {
  HitTarget target;
  PairResult result;  // Query(level, shape, target).
};
struct OverlapQueryResult {
  bool valid = true;
  std::vector<Violation> problems;
  TimeUsed time;
  std::vector<OverlapHit> hits;  // ordered by TargetLess, capped.
  std::size_t total_hits = 0;
};

struct ShapeCastQuery {
  Shape shape;  // convex, not a halfspace; world frame at t = 0.
  Vec3 translation;
  std::optional<Time> at;
  QueryFilter filter;
};
struct ShapeCastResult {
  bool valid = true;
  std::vector<Violation> problems;
  TimeUsed time;
  bool hit = false;
  double t = 0.0;  // first time of impact in [0, 1].
  Vec3 point;
  Vec3 normal;         // from the cast shape towards the target.
  double depth = 0.0;  // > 0 when already overlapping at t = 0.
  HitTarget target;
};

// A body as posed at a time, world frame (World::Bodies, the explanations).
struct PosedPart {
  std::int32_t id = 0;
  Shape shape;  // world frame (a box part is an obb).
  friend bool operator==(const PosedPart&, const PosedPart&) = default;
};
struct PosedBody {
  std::int64_t id = 0;
  Pose pose;  // body frame -> world frame.
  std::vector<PosedPart> parts;
  CategoryMask category = kAllCategories;
  Vec3 eye;  // world frame.
  friend bool operator==(const PosedBody&, const PosedBody&) = default;
};
struct BodiesResult {
  bool valid = true;  // false: `problems` ("at.fraction"); nothing else set.
  std::vector<Violation> problems;
  TimeUsed time;
  std::vector<PosedBody> bodies;      // sorted by id.
  std::vector<std::int64_t> missing;  // requested ids that do not exist at the time used, sorted.
};

// Shot validation.
enum class ShotCode : std::uint8_t {
  kConfirmed,
  kHitOtherPart,
  kHitOtherBody,
  kBlocked,
  kMissed,
  kRewindTooOld,
  kInTheFuture,
  kOriginImplausible,
  kUnknownShooter,
  kUnknownTarget,
  kInvalid,              // bad fields (a non-finite or zero direction, a bad time, ...): `problems`.
  kViewTimeImplausible,  // `at` farther than max_skew_ticks from expected_at.
};
std::string_view ShotCodeName(ShotCode code);  // "CONFIRMED", ...

struct ShotClaim {
  std::int64_t body = 0;
  std::int32_t part = 0;
};
struct ShotRequest {
  std::int64_t shooter = 0;
  Vec3 origin;
  Vec3 direction;
  double max_range = kInfinity;
  std::optional<Time> at;  // the time the shooter saw (the rewind).
  std::optional<ShotClaim> claim;
  double tolerance = 0.0;  // the claimed body's parts count as hit within this distance of the ray.
  // Where the server knows the shooter: the time of the shot's command
  // (default: the latest frame); the origin is checked against the
  // shooter's eye then.
  std::optional<Time> command_at;
  // The view time the server expects from its latency estimate, and the
  // skew allowed around it, in ticks: `at` outside is VIEW_TIME_IMPLAUSIBLE.
  std::optional<Time> expected_at;
  double max_skew_ticks = 0.0;
  // What the ray sees: bodies and statics with (category & mask) != 0, not
  // in ignored_bodies (the shooter is always ignored).
  CategoryMask mask = kAllCategories;
  std::vector<std::int64_t> ignored_bodies;
  bool explain = false;  // fill ShotVerdict::explanation (not for kInvalid).
};
// What a shot's judge used, world frame (computed only when asked).
struct ShotExplanation {
  Time command_at;                   // the time the origin was checked at.
  std::optional<PosedBody> shooter;  // then; its eye is what origin_offset is measured from.
  std::optional<Ray> ray;            // unit direction; unset when no ray was cast.
  // With a claim: the claimed body at the time used and in the latest frame
  // (unset when it does not exist then).
  std::optional<PosedBody> claimed_rewound;
  std::optional<PosedBody> claimed_latest;
  double tolerance = 0.0;
  // The claimed part (rewound) nearest the shot's segment and that distance
  // (0 when they meet; ungrown parts), with a claimed_rewound.
  std::int32_t nearest_claimed_part = 0;
  double nearest_claimed_distance = 0.0;
};
struct ShotVerdict {
  ShotCode code = ShotCode::kMissed;
  std::vector<Violation> problems;  // kInvalid only.
  TimeUsed time;
  std::optional<WorldRayHit> first_hit;
  // Claimed target not confirmed: distance from the shot segment (origin to
  // max range) to the claimed part at the time used; -1 when not applicable.
  double claim_miss_distance = -1.0;
  // |origin - the shooter's eye at command_at|, when known, and the offset
  // allowed: max_origin_offset plus the motion of the shooter's eye (a run,
  // a fall, a crouch) over the tick before command_at.
  double origin_offset = 0.0;
  double origin_allowance = 0.0;
  // The time used lies before a teleport (flagged or guarded) of the
  // shooter or the claimed body: the rewound pose is not where it is now.
  bool rewound_across_teleport = false;
  // ShotRequest::explain; null otherwise (shared and immutable: a verdict
  // without one stays as small and cheap to copy as before).
  std::shared_ptr<const ShotExplanation> explanation;
};

// Move validation.
enum class MoveCode : std::uint8_t {
  kOk,
  kTooFast,
  kBlocked,
  kStartPenetrating,
  kUnknownBody,
  kInvalid,  // bad fields: `problems`.
  // With a movement model (collide/movement.h):
  kTooFastHorizontal,  // faster in the horizontal plane than the stance (or air) speed.
  kTooFastVertical,    // rises or drops more than steps, slopes, jumps and falls allow.
  kStepTooHigh,        // blocked where only a step higher than step_height would pass.
  kFlying,             // airborne above every jump/fall arc from its take-off.
  kTooSteep,           // kFlying on a surface too steep to stand on (climbing it).
  // With a move budget (collide/movement.h):
  kDistanceBudget,  // the body's moves in the window go farther than max_speed allows.
  kTimeBudget,      // they claim more elapsed time than the server's ticks cover.
};
std::string_view MoveCodeName(MoveCode code);  // "OK", ...

struct MoveRequest {
  std::int64_t body = 0;
  // Default: the body's position in the frame before the latest (in the
  // latest when it is new or teleported there, or only one frame is kept).
  std::optional<Vec3> from;
  Vec3 to;
  double elapsed = 0.0;             // seconds, > 0.
  std::optional<double> max_speed;  // default: WorldSettings::default_max_speed.
  bool slide = false;
  CategoryMask mask = 0;  // static elements considered; 0: WorldSettings::move_mask.
  // With a movement model: the stance's movement shape and speed (index in
  // MovementModel::stances), and a model for this move instead of the
  // world's (a move may also turn the model on).
  int stance = 0;
  std::optional<MovementModel> movement;
  bool explain = false;  // fill MoveVerdict::explanation (not for kInvalid).
};
// A straight sweep of the moving shape, body origin from -> to, and why the
// judge made it ("straight", "slide", "step up", "stairs ground probe", ...).
struct MoveSweep {
  Vec3 from;
  Vec3 to;
  std::string purpose;
};
// A contact a sweep met: the fraction of the sweep where the shape first
// goes skin_width deep, the body origin there, the normal from the body
// towards the static, and what was met.
struct MoveContact {
  int sweep = 0;  // index in MoveExplanation::sweeps.
  double t = 0.0;
  Vec3 position;
  Vec3 normal;
  HitTarget target;
};
// What a move's judge used, world frame (computed only when asked).
struct MoveExplanation {
  Vec3 from;  // resolved when the request left it unset.
  Vec3 to;
  // The movement shape at `from` (the stance's with a model, else the
  // body's); unset when the body moves several parts.
  std::optional<Shape> shape;
  std::vector<MoveSweep> sweeps;  // in the order they were made.
  std::vector<MoveContact> contacts;
  std::string reason;  // the rule that gave the verdict and its numbers.
  // With a movement model: the state judged from, the horizontal speed
  // allowed and the range of body origin z allowed at `to` (0 without).
  bool grounded_at_start = false;
  double horizontal_limit = 0.0;
  double lowest_z = 0.0;
  double highest_z = 0.0;
};
struct MoveVerdict {
  MoveCode code = MoveCode::kOk;
  std::vector<Violation> problems;  // kInvalid only.
  double speed = 0.0;               // |to - from| / elapsed.
  // kBlocked: the first contact with the static that blocks (see the rules
  // above); kStartPenetrating: depth and normal.
  double t = 0.0;  // time of first contact as a fraction of the move.
  Vec3 normal;     // from the moving shape towards the obstacle.
  double depth = 0.0;
  HitTarget target;
  Vec3 allowed_position;  // kBlocked: at a gap of skin_width from what blocks; else `to` (kOk) or `from`.
  Vec3 slid_position;     // kBlocked with slide: after sliding (same gap); else allowed_position.
  bool grounded = false;  // with a movement model: on walkable ground at allowed_position.
  std::shared_ptr<const MoveExplanation> explanation;  // MoveRequest::explain; null otherwise.
};

// Visibility sets (collide/visibility.h, docs/visibility.md): which bodies
// each observer may see at a time. An observer's eye region is its eye
// (BodyUpdate::eye) swept by its velocity over `latency` seconds; a
// target's region is the bounds of its parts swept likewise; both grown by
// `margin`. Velocities come from the poses one tick before the time and at
// it (zero for a body new then, or at the oldest kept frame).
struct VisibilityRequest {
  std::optional<Time> at;
  std::vector<std::int64_t> observers;        // empty: every body at the time, by id.
  double tick_seconds = 0.0;                  // the server's tick length (> 0 when latency > 0).
  double latency = 0.0;                       // seconds of look-ahead (>= 0).
  double margin = 0.0;                        // length units added around every region (>= 0).
  CategoryMask target_mask = kAllCategories;  // targets: bodies with (category & mask) != 0.
};
struct VisibilitySet {
  std::int64_t observer = 0;
  bool found = false;                 // the observer exists at the time; else `visible` is empty.
  std::vector<std::int64_t> visible;  // target ids, increasing; never the observer.
};
struct VisibilityResult {
  bool valid = true;  // false: `problems` says why; nothing else set.
  std::vector<Violation> problems;
  TimeUsed time;
  std::vector<VisibilitySet> sets;  // one per observer, in request order.
  std::int64_t pairs = 0;           // observer-target pairs judged.
  std::int64_t hidden = 0;          // of them, hidden.
  std::int64_t reused = 0;          // of them, answered visible again without a walk (reuse_ticks).
};

// Why a frame was rejected.
struct FrameError {
  enum class Kind : std::uint8_t { kOk, kTickNotIncreasing, kInvalid };
  Kind kind = Kind::kOk;
  std::string message;              // kTickNotIncreasing: the ticks.
  std::vector<Violation> problems;  // kInvalid: "bodies[3].pose.rotation", ...
  bool ok() const { return kind == Kind::kOk; }
};

class World {
 public:
  // Statics must pass ValidateStatics (an invalid element is kept out of
  // queries). Settings are taken as given after ValidateSettings.
  World(WorldSettings settings, std::vector<StaticElement> statics);
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  ~World();

  static bool ValidateStatics(std::span<const StaticElement> statics, std::vector<Violation>& out);

  // Applies `frame` whole, or rejects it whole and leaves the world as it was.
  FrameError PushFrame(const Frame& frame);

  const WorldSettings& settings() const { return settings_; }
  std::size_t frame_count() const;
  std::optional<std::int64_t> oldest_tick() const;
  std::optional<std::int64_t> latest_tick() const;
  std::size_t body_count() const;        // in the latest frame.
  bool has_body(std::int64_t id) const;  // in the latest frame.
  // Heap bytes of the history (snapshots, part sets, trees), not the statics.
  std::size_t history_bytes() const;
  // Bodies the teleport guard (max_tick_distance) took as teleported so far.
  std::int64_t detected_teleports() const { return detected_teleports_; }

  // The time a query at `at` uses.
  TimeUsed Resolve(std::optional<Time> at) const;
  // A body's pose at `at` (after clamping), or nothing if it does not exist then.
  std::optional<Pose> BodyPoseAt(std::int64_t body, std::optional<Time> at) const;
  // Each part of a body at `at`, placed in the world frame (ids, shapes).
  std::vector<std::pair<std::int32_t, Shape>> BodyPartsAt(std::int64_t body, std::optional<Time> at) const;
  // The bodies at `at` as the verdicts see them (pose, parts, category, eye):
  // those in `ids`, or every body when `ids` is empty.
  BodiesResult Bodies(std::optional<Time> at, std::span<const std::int64_t> ids) const;

  std::vector<RayQueryResult> RayCasts(std::span<const RayQuery> queries) const;
  std::vector<OverlapQueryResult> Overlaps(std::span<const OverlapQuery> queries) const;
  std::vector<ShapeCastResult> ShapeCasts(std::span<const ShapeCastQuery> queries) const;
  std::vector<ShotVerdict> ValidateShots(std::span<const ShotRequest> shots) const;
  std::vector<MoveVerdict> ValidateMoves(std::span<const MoveRequest> moves) const;
  // Projectile and melee verdicts: collide/projectile.h, collide/melee.h.
  std::vector<ProjectileVerdict> ValidateProjectiles(std::span<const ProjectileRequest> projectiles) const;
  std::vector<MeleeVerdict> ValidateMelee(std::span<const MeleeRequest> swings) const;
  VisibilityResult VisibleSets(const VisibilityRequest& request) const;
  // The occluder grid built at creation (built false without occluders).
  const VisibilityGridInfo& visibility_info() const;

  // The static elements as given (convex hull vertices owned by the world).
  std::span<const StaticElement> statics() const;

 private:
  WorldSettings settings_;
  std::unique_ptr<internal::StaticSet> statics_;
  std::deque<std::unique_ptr<internal::Snapshot>> history_;
  std::unique_ptr<internal::HistoryMemory> memory_;  // of history_, kept as it changes.
  std::int64_t detected_teleports_ = 0;
  // What the movement model keeps per body between moves (its arc), under
  // its own lock: ValidateMoves stays const and batches are judged in order.
  std::unique_ptr<internal::MoveStates> move_states_;
  std::unique_ptr<internal::VoxelGrid> visibility_;  // the occluders' voxels (settings_.visibility).
  // The answers kept between VisibleSets calls (VisibilitySettings::reuse_ticks), under their own lock.
  std::unique_ptr<internal::VisibilityMemory> visibility_memory_;
  friend struct internal::SceneAccess;
};

}  // namespace collide

#endif  // COLLIDE_WORLD_H_
