// Type declarations of the world API (world.js; proto/collide/v1/world.proto).
// camelCase throughout: request fields are the proto's in camelCase (the
// client also takes the proto's snake_case names; vectors may be [x, y, z],
// quaternions [w, x, y, z], repeated numbers typed arrays); results use
// camelCase, [x, y, z] vectors and enum names.
//
// 64-bit integers (body, element and shooter ids, ticks, category masks):
// requests take them as Int64 (a Number, a decimal string or a bigint; give
// a string or a bigint for an id past Number.MAX_SAFE_INTEGER, 2^53 - 1, so
// that every digit is kept). Results give them as Numbers, exact up to
// Number.MAX_SAFE_INTEGER: keep ids that come back in results (bodies,
// elements) within it.
import {EventEmitter} from 'events';
import type {CollideError, Quaternion, Ray, Shape, Triple, Vec3} from './index';

export const WORLD_HEADER: 'collide-world';

/** An int64 / uint64 request field: a Number (exact within Number.MAX_SAFE_INTEGER), a decimal string or a
 * bigint (strings and bigints keep all 64 bits). */
export type Int64 = number | string | bigint;

export interface Pose {
  position?: Vec3;
  rotation?: Quaternion;
}

export interface StaticElement {
  id?: Int64;
  /** 0 or unset: all 64 bits. */
  category?: Int64;
  /** Exactly one of mesh, shape and mapFile. */
  mesh?: {vertices?: ArrayLike<number>; indices?: ArrayLike<number>};
  shape?: Shape;
  /** A file in the server's --maps_dir; map picks one map of a .pk3;
   * geometry the categories (MapGeometry: "MAP_GEOMETRY_SOLID" or 2, ...;
   * empty: render). */
  mapFile?: {name: string; map?: string; geometry?: Array<string | number>};
}

export interface WorldPolicy {
  maxRewindTicks?: number;
  maxOriginOffset?: number;
  defaultMaxSpeed?: number;
  skinWidth?: number;
  slideIterations?: number;
  clampOldShots?: boolean;
  maxTickDistance?: number;
  /** Statics a move with categoryMask 0 sees; unset: all 64 bits. */
  moveCategoryMask?: Int64;
  /** Statics and bodies shots see; unset: all 64 bits. */
  shotCategoryMask?: Int64;
  /** Moves judged by a game's movement rules (docs/moves.md); unset: off. */
  movement?: MovementModel;
  /** A budget across each body's moves (docs/moves.md); unset: none. */
  move_budget?: {tick_seconds: number; window?: number; max_speed?: number; time_slack?: number;
    distance_slack?: number};
  /** Occluders for getVisibility (docs/visibility.md); unset: none. */
  visibility?: {occluder_category_mask?: Int64; voxel_size?: number; max_voxels?: Int64; reuse_ticks?: number};
}

/** world.proto MovementModel: a preset, the fields set replacing its values. */
export interface MovementModel {
  preset?: 'MOVEMENT_PRESET_QUAKE' | 'MOVEMENT_PRESET_SOURCE' | 'MOVEMENT_PRESET_UNREAL' | number;
  stances?: Array<{shape: Shape; maxSpeed?: number}>;
  airSpeed?: number;
  gravity?: number;
  jumpSpeed?: number;
  maxFallSpeed?: number;
  stepHeight?: number;
  walkableNormalZ?: number;
  groundProbe?: number;
  tolerance?: number;
  airborneEnvelope?: boolean;
  groundFriction?: number;
  groundAccelerate?: number;
  airAcceleration?: number;
}

/** What the server keeps of the world's calls (docs/replay.md); each needs its server flag. */
export interface WorldJournal {
  /** The audit trail: every verdict as a JSON line under --audit_dir, and WatchAudit. */
  audit?: boolean;
  /** A match recording of every call under --recordings_dir. */
  record?: boolean;
}

export interface CreateWorldRequest {
  worldId: string;
  statics?: StaticElement[];
  /** 0: 64 (or --max_history_ticks if lower). */
  historyTicks?: number;
  policy?: WorldPolicy;
  journal?: WorldJournal;
}

export interface BodyPart {
  id?: number;
  /** Sphere, capsule, segment, point, triangle, aabb or obb, part frame. */
  shape?: Shape;
  local?: Pose;
}

export interface BodyUpdate {
  id: Int64;
  pose?: Pose;
  parts?: BodyPart[];
  partPoses?: Array<{part?: number; local?: Pose}>;
  teleport?: boolean;
  category?: Int64;
  movementShape?: Shape;
  /** Body frame: where its shots start (eye or muzzle); set or replace. */
  eye?: Vec3;
}

export interface Frame {
  /** Strictly after the latest frame's tick. */
  tick: Int64;
  bodies?: BodyUpdate[];
  removals?: Int64[];
}

export interface WorldTime {
  tick?: Int64;
  /** In [0, 1). */
  fraction?: number;
}

export interface SceneFilter {
  /** Unset: the latest frame. */
  at?: WorldTime;
  /** 0 or unset: all 64 bits. */
  categoryMask?: Int64;
  ignoreBodies?: Int64[];
}

export type RayMode = 'RAY_MODE_CLOSEST' | 'RAY_MODE_ANY' | 'RAY_MODE_ALL' | 'RAY_MODE_UNSPECIFIED' | number;

export interface QueryWorldRequest {
  rayCasts?: Array<{ray?: Ray; filter?: SceneFilter; mode?: RayMode; maxHits?: number}>;
  shapeCasts?: Array<{shape?: Shape; translation?: Vec3; filter?: SceneFilter}>;
  overlaps?: Array<{shape?: Shape; filter?: SceneFilter; maxResults?: number; level?: string | number}>;
}

export interface Shot {
  shooterId: Int64;
  origin?: Vec3;
  direction?: Vec3;
  /** Unset or Infinity: unbounded. */
  maxRange?: number;
  /** The time the shooter saw; unset: the latest frame. */
  at?: WorldTime;
  claimed?: {bodyId?: Int64; partId?: number};
  tolerance?: number;
  /** The time of the shot's command, where the server knows the shooter; unset: the latest frame. */
  commandAt?: WorldTime;
  /** The view time the server's latency estimate expects, and the skew allowed in ticks. */
  expectedAt?: WorldTime;
  maxSkewTicks?: number;
  /** What the ray sees (0: all categories), and bodies it never hits. */
  categoryMask?: Int64;
  ignoreBodies?: Int64[];
}

/** ticks[i] of a packed shot at the latest frame: INT64_MIN (-(2 ** 63)), never a tick. */
export const LATEST_TICK: number;

/** Shot i: doubles[10i .. 10i + 9] (origin, direction, maxRange, fraction, tolerance, maxSkewTicks), shooterIds[i],
 * ticks[i] (LATEST_TICK: the latest frame), claimedBodyIds[i] and claimedPartIds[i] (-1: no claim). */
export interface PackedShots {
  doubles: ArrayLike<number>;
  shooterIds: ArrayLike<number>;
  ticks: ArrayLike<number>;
  claimedBodyIds: ArrayLike<number>;
  claimedPartIds: ArrayLike<number>;
  /** As VerdictOptions.allOrNothing and explain. */
  allOrNothing?: boolean;
  explain?: boolean;
  /** Optional arrays, empty or one entry per shot (world.proto ValidateShotsPackedRequest): the command's
   * tick and the expected view tick (LATEST_TICK: latest / none), the category mask, and the ignored bodies
   * (ignoreCounts[i] ids of ignoreBodyIds, shot after shot). */
  commandTicks?: ArrayLike<number>;
  expectedTicks?: ArrayLike<number>;
  categoryMasks?: ArrayLike<number>;
  ignoreCounts?: ArrayLike<number>;
  ignoreBodyIds?: ArrayLike<number>;
}

export interface VerdictOptions {
  /** A bad shot or move fails the whole call with INVALID_ARGUMENT, instead of getting an INVALID verdict. */
  allOrNothing?: boolean;
  /** Each verdict but INVALID carries its explanation: what the judge used (docs/worlds.md). */
  explain?: boolean;
}

/** One bad field of a shot or move (an INVALID verdict), its path relative to the item. */
export interface ItemViolation {
  field: string;
  description: string;
}

export interface Move {
  bodyId: Int64;
  /** Unset: the body's position in the frame before the latest. */
  from?: Vec3;
  to?: Vec3;
  /** Seconds, > 0. */
  elapsed?: number;
  /** Unset: the policy's defaultMaxSpeed. */
  maxSpeed?: number;
  slide?: boolean;
  /** 0 or unset: the policy's moveCategoryMask. */
  categoryMask?: Int64;
  /** With a movement model: the stance's index (presets: 0 standing, 1 crouched). */
  stance?: number;
  /** This move's own movement model. */
  movement?: MovementModel;
}

// Results.

/** A projectile launched at `at` (world.proto Projectile, docs/projectiles.md). */
export interface Projectile {
  shooterId: Int64;
  /** The launch as the shooter saw it; unset: the latest frame. */
  at?: WorldTime;
  origin?: Vec3;
  /** Units per second. */
  velocity?: Vec3;
  /** Units per second squared. */
  gravity?: Vec3;
  /** k >= 0 per second: dv/dt = gravity - k v. */
  drag?: number;
  /** 0: a point. */
  radius?: number;
  /** In [0, 1]: the normal speed a bounce keeps. */
  restitution?: number;
  /** In [0, 64]: statics it bounces off. */
  maxBounces?: number;
  /** Seconds, in (0, 600]. */
  timeLimit?: number;
  /** The world's tick length in seconds (1/64 at 64 Hz). */
  tickSeconds?: number;
  /** The accuracy contract, units; 0: 0.01. */
  chordTolerance?: number;
  claimed?: {bodyId?: Int64; partId?: number};
  categoryMask?: Int64;
  ignoreBodies?: Int64[];
  /**
   * The time of the launch command, where the origin is checked against the shooter's eye; unset: the
   * latest frame (keep it when asking again about a flight on later ticks).
   */
  commandAt?: WorldTime;
}

/** A sector around the attacker's eye in the plane perpendicular to `up`. */
export interface MeleeArc {
  direction?: Vec3;
  up?: Vec3;
  radius?: number;
  /** Radians, in (0, 2 pi]: the full opening. */
  angle?: number;
}

/** A capsule moved from `from` to `to` in the attacker's body frame. */
export interface MeleeSweep {
  from?: {a?: Vec3; b?: Vec3; radius?: number};
  to?: {a?: Vec3; b?: Vec3; radius?: number};
}

/** A melee swing (world.proto Melee): `arc` or `sweep`. */
export interface Melee {
  attackerId: Int64;
  at?: WorldTime;
  arc?: MeleeArc;
  sweep?: MeleeSweep;
  claimed?: {bodyId?: Int64; partId?: number};
  tolerance?: number;
  categoryMask?: Int64;
  ignoreBodies?: Int64[];
}

export interface WorldInfo {
  worldId: string;
  staticElements: number;
  triangles: number;
  degenerateTriangles: number;
  bodies: number;
  memoryBytes: number;
  latestTick: number;
  oldestTick: number;
  framesKept: number;
  historyTicks: number;
  policy: {
    maxRewindTicks: number | null;
    maxOriginOffset: number | null;
    defaultMaxSpeed: number | null;
    skinWidth: number | null;
    slideIterations: number | null;
    clampOldShots: boolean | null;
    maxTickDistance: number | null;
  } | null;
  replica: string;
  /** Bodies the teleport guard (policy.maxTickDistance) took as teleported. */
  detectedTeleports: number;
}

/** What a hit touched. */
export type Target =
  | {kind: 'static'; elementId: number; triangle: number}
  | {kind: 'body'; bodyId: number; partId: number};

export interface TimeUsed {
  at: {tick: number; fraction: number} | null;
  /** The requested time was outside the kept history. */
  clamped: boolean;
}

export interface WorldRayHit {
  distance: number;
  point: Triple;
  normal: Triple;
  target: Target | null;
}

export interface WorldRayResult {
  /** Empty on a miss. */
  hits: WorldRayHit[];
  totalHits: number;
  time: TimeUsed | null;
}

export interface WorldShapeCastResult {
  hit: boolean;
  t: number;
  point: Triple;
  normal: Triple;
  depth: number;
  target: Target | null;
  time: TimeUsed | null;
}

export interface WorldOverlapResult {
  overlaps: Array<{
    target: Target | null;
    contact: {hit: boolean; distance: number; pointA: Triple; pointB: Triple; normal: Triple; status: string} | null;
  }>;
  total: number;
  time: TimeUsed | null;
}

export interface QueryWorldResponse {
  rayCasts: WorldRayResult[];
  shapeCasts: WorldShapeCastResult[];
  overlaps: WorldOverlapResult[];
}

/** Ray i at [i], or [3i, 3i + 3) for vectors. targetKind: 0 none, 1 static (targetId = element, targetIndex =
 * triangle, 0 for a shape), 2 body (targetId = body, targetIndex = part). */
export interface PackedWorldRayHits {
  hit: boolean[];
  distance: Float64Array;
  point: Float64Array;
  normal: Float64Array;
  targetKind: Int32Array;
  targetId: number[];
  targetIndex: number[];
  time: TimeUsed | null;
}

export type ShotCode =
  | 'SHOT_CODE_CONFIRMED' | 'SHOT_CODE_HIT_OTHER_PART' | 'SHOT_CODE_HIT_OTHER_BODY' | 'SHOT_CODE_BLOCKED'
  | 'SHOT_CODE_MISSED' | 'SHOT_CODE_REWIND_TOO_OLD' | 'SHOT_CODE_IN_THE_FUTURE' | 'SHOT_CODE_ORIGIN_IMPLAUSIBLE'
  | 'SHOT_CODE_UNKNOWN_SHOOTER' | 'SHOT_CODE_UNKNOWN_TARGET' | 'SHOT_CODE_INVALID'
  | 'SHOT_CODE_VIEW_TIME_IMPLAUSIBLE';

/** A shape as results give it: the oneof's member set, the others null (a box part comes back as an obb). */
export interface ShapeView {
  point: {position: Triple} | null;
  segment: {a: Triple; b: Triple} | null;
  sphere: {center: Triple; radius: number} | null;
  capsule: {a: Triple; b: Triple; radius: number} | null;
  aabb: {min: Triple; max: Triple} | null;
  obb: {center: Triple; halfExtents: Triple; rotation: QuaternionView | null} | null;
  triangle: {a: Triple; b: Triple; c: Triple} | null;
}
export interface QuaternionView {
  w: number;
  x: number;
  y: number;
  z: number;
}

/** A body as posed at a time, world frame. */
export interface PosedBody {
  id: number;
  /** Body frame -> world frame. */
  pose: {position: Triple | null; rotation: QuaternionView | null} | null;
  parts: Array<{id: number; shape: ShapeView | null}>;
  category: number;
  /** The eye, world frame. */
  eye: Triple;
}

/** GetBodies' answer. */
export interface Bodies {
  time: TimeUsed | null;
  /** Sorted by id. */
  bodies: PosedBody[];
  /** Requested ids that do not exist at the time used. */
  missing: number[];
}

/** What a shot's judge used (VerdictOptions.explain). */
export interface ShotExplanation {
  /** The time the origin was checked at, and the shooter then. */
  commandAt: {tick: number; fraction: number} | null;
  shooter: PosedBody | null;
  /** Origin, unit direction, range (maxDistance null: unbounded); null when no ray was cast. */
  ray: {origin: Triple; direction: Triple; maxDistance: number | null} | null;
  /** With a claim: the claimed body at the time used and in the latest frame. */
  claimedRewound: PosedBody | null;
  claimedLatest: PosedBody | null;
  tolerance: number;
  nearestClaimedPart: number;
  nearestClaimedDistance: number;
}

/** A sweep of the body origin and why ('straight', 'slide', 'step up', 'ground probe at to', ...). */
export interface MoveSweep {
  from: Triple;
  to: Triple;
  purpose: string;
}

/** A contact on sweeps[sweep] at fraction t: the body origin there, the normal from the body to the static. */
export interface MoveContact {
  sweep: number;
  t: number;
  position: Triple;
  normal: Triple;
  target: Target | null;
}

/** What a move's judge used (VerdictOptions.explain). */
export interface MoveExplanation {
  from: Triple;
  to: Triple;
  /** The movement shape at from; null when the body moves several parts. */
  shape: ShapeView | null;
  sweeps: MoveSweep[];
  contacts: MoveContact[];
  /** The rule that gave the verdict, with its numbers. */
  reason: string;
  /** With a movement model (else false and 0). */
  groundedAtStart: boolean;
  horizontalLimit: number;
  lowestZ: number;
  highestZ: number;
}

export interface ShotVerdict {
  code: ShotCode;
  firstHit: WorldRayHit | null;
  time: TimeUsed | null;
  /** -1 when not computed. */
  claimedMissDistance: number;
  originOffset: number;
  /** The origin offset allowed: maxOriginOffset plus the shooter's motion over the tick. */
  originAllowance: number;
  /** The time used lies before a teleport of the shooter or the claimed body. */
  rewoundAcrossTeleport: boolean;
  /** SHOT_CODE_INVALID: the shot's bad fields. */
  violations: ItemViolation[];
  /** With VerdictOptions.explain (null for INVALID or without). */
  explanation: ShotExplanation | null;
}

export type MoveCode =
  | 'MOVE_CODE_OK' | 'MOVE_CODE_TOO_FAST' | 'MOVE_CODE_BLOCKED' | 'MOVE_CODE_START_PENETRATING'
  | 'MOVE_CODE_UNKNOWN_BODY' | 'MOVE_CODE_INVALID' | 'MOVE_CODE_TOO_FAST_HORIZONTAL'
  | 'MOVE_CODE_TOO_FAST_VERTICAL' | 'MOVE_CODE_STEP_TOO_HIGH' | 'MOVE_CODE_FLYING' | 'MOVE_CODE_TOO_STEEP'
  | 'MOVE_CODE_DISTANCE_BUDGET' | 'MOVE_CODE_TIME_BUDGET';

/** getVisibility's options (world.proto GetVisibilityRequest). */
export interface VisibilityOptions {
  /** Unset: the latest frame. */
  at?: {tick: Int64; fraction?: number};
  /** Empty: every body at the time, by id. */
  observers?: Int64[];
  /** The server's tick length, seconds (> 0 when latency > 0). */
  tickSeconds?: number;
  /** Seconds of look-ahead (>= 0). */
  latency?: number;
  /** Length units around every region (>= 0). */
  margin?: number;
  /** Targets: bodies with (category & mask) != 0; 0: all. */
  targetCategoryMask?: Int64;
}

export interface VisibilitySet {
  observer: number;
  /** The observer exists at the time; else visible is empty. */
  found: boolean;
  /** The bodies it may see, increasing ids. */
  visible: number[];
}

export interface VisibilitySets {
  /** One per observer, in the order asked. */
  sets: VisibilitySet[];
  pairs: number;
  hidden: number;
  /** Of the pairs, those answered visible again without a new walk (policy.visibility.reuse_ticks). */
  reused: number;
  time: TimeUsed;
}

export interface MoveVerdict {
  code: MoveCode;
  allowedPosition: Triple;
  t: number;
  normal: Triple;
  target: Target | null;
  depth: number;
  speed: number;
  slidPosition: Triple;
  /** MOVE_CODE_INVALID: the move's bad fields. */
  violations: ItemViolation[];
  /** With a movement model: on walkable ground at allowedPosition. */
  grounded: boolean;
  /** With VerdictOptions.explain (null for INVALID or without). */
  explanation: MoveExplanation | null;
}

export type ProjectileCode =
  | 'PROJECTILE_CODE_CONFIRMED' | 'PROJECTILE_CODE_HIT_OTHER_PART' | 'PROJECTILE_CODE_HIT_OTHER_BODY'
  | 'PROJECTILE_CODE_BLOCKED' | 'PROJECTILE_CODE_MISSED' | 'PROJECTILE_CODE_IN_FLIGHT'
  | 'PROJECTILE_CODE_REWIND_TOO_OLD' | 'PROJECTILE_CODE_IN_THE_FUTURE' | 'PROJECTILE_CODE_UNKNOWN_SHOOTER'
  | 'PROJECTILE_CODE_UNKNOWN_TARGET' | 'PROJECTILE_CODE_INVALID' | 'PROJECTILE_CODE_ORIGIN_IMPLAUSIBLE';

/** Where a projectile met something. */
export interface ProjectileContact {
  /** Seconds since launch, and the world time then. */
  seconds: number;
  at: WorldTime | null;
  /** The projectile's centre, the contact point, the normal (from the projectile). */
  position: Triple;
  point: Triple;
  normal: Triple;
  target: Target | null;
}

export interface ProjectileVerdict {
  code: ProjectileCode;
  /** The launch time used. */
  time: TimeUsed | null;
  /** What stopped it: a body part, or a static with no bounce left. */
  hit: ProjectileContact | null;
  bounces: ProjectileContact[];
  /** The end of the judged flight (the hit, the time limit, or the latest frame) and its state then. */
  seconds: number;
  endAt: WorldTime | null;
  position: Triple;
  velocity: Triple;
  violations: ItemViolation[];
  /** The origin against the shooter's eye at commandAt, and the offset allowed (as a shot's). */
  originOffset: number;
  originAllowance: number;
}

export interface MeleeHit {
  target: Target | null;
  point: Triple;
  distance: number;
}

export interface MeleeVerdict {
  code: ShotCode;
  time: TimeUsed | null;
  eye: Triple;
  /** Parts reached with a clear line from the eye, nearest first. */
  hits: MeleeHit[];
  /** What blocks the line (BLOCKED, HIT_OTHER_BODY). */
  blocker: WorldRayHit | null;
  /** -1 when not computed. */
  claimedMissDistance: number;
  violations: ItemViolation[];
}

export interface WorldOptions {
  /** Re-create the world when a call finds it lost (NOT_FOUND, reason WORLD_NOT_FOUND). Default true. */
  recreate?: boolean;
}

/** Emitted when the world was re-created: the history before latestTick is lost. */
export interface RecreatedEvent {
  worldId: string;
  /** The tick of the frame that restored the bodies; null when no frame had been pushed. */
  latestTick: number | null;
  /** The error that revealed the loss. */
  cause: CollideError;
}

/** The parts of one Tick message, run by the server in this order. */
export interface TickParts {
  frame?: Frame;
  query?: QueryWorldRequest;
  shots?: Shot[];
  moves?: Move[];
  projectiles?: Projectile[];
  melee?: Melee[];
  /** As VerdictOptions.allOrNothing, for this message's shots, moves, projectiles and melee. */
  allOrNothing?: boolean;
  shotsPacked?: PackedShots;
  raysPacked?: {rays: ArrayLike<number>; filter?: SceneFilter};
  /** As World.getVisibility's options ({}: every observer's set); run after the frame and the verdicts. */
  visibility?: VisibilityOptions;
  /** As World.getBodies' options; run after every other part. */
  bodies?: {at?: WorldTime; bodyIds?: Int64[]};
}

/** The answer of one Tick message: each part's result, null for parts not sent (or not run). */
export interface TickAnswer {
  sequence: number;
  frame: {oldestTick: number} | null;
  query: QueryWorldResponse | null;
  shots: ShotVerdict[] | null;
  moves: MoveVerdict[] | null;
  projectiles: ProjectileVerdict[] | null;
  melee: MeleeVerdict[] | null;
  shotsPacked: ShotVerdict[] | null;
  raysPacked: PackedWorldRayHits | null;
  bodies: Bodies | null;
  visibility: VisibilitySets | null;
}

/** One world's Tick stream (tick.js). */
export class TickStream {
  /** Resolves to the message's answer; rejects with a CollideError whose `answer` holds the parts that ran. */
  send(parts: TickParts, options?: {budgetMs?: number}): Promise<TickAnswer>;
  /** Half-closes; resolves once the server ended the stream OK. */
  end(): Promise<void>;
  cancel(): void;
}

export class World extends EventEmitter {
  readonly id: string;
  /** What CreateWorld answered; null for a handle from Client.world(). */
  readonly created: WorldInfo | null;
  /** Times this handle re-created its world. */
  readonly recreations: number;
  /** The latest tick pushed through this handle. */
  readonly latestTick: number | null;
  info(): Promise<WorldInfo>;
  delete(): Promise<void>;
  pushFrame(frame: Frame): Promise<{oldestTick: number}>;
  query(request: QueryWorldRequest): Promise<QueryWorldResponse>;
  castRaysPacked(raysFlat: ArrayLike<number>, filter?: SceneFilter): Promise<PackedWorldRayHits>;
  validateShots(shots: Shot[], options?: VerdictOptions): Promise<ShotVerdict[]>;
  validateShotsPacked(shots: PackedShots): Promise<ShotVerdict[]>;
  validateMoves(moves: Move[], options?: VerdictOptions): Promise<MoveVerdict[]>;
  /** The bodies at a time (unset: the latest frame) as the verdicts pose them; bodyIds empty: every body. */
  getBodies(options?: {at?: WorldTime; bodyIds?: Int64[]}): Promise<Bodies>;
  validateProjectiles(projectiles: Projectile[], options?: VerdictOptions): Promise<ProjectileVerdict[]>;
  validateMelee(melee: Melee[], options?: VerdictOptions): Promise<MeleeVerdict[]>;
  /** For each observer, the bodies it may see (docs/visibility.md). */
  getVisibility(options?: VisibilityOptions): Promise<VisibilitySets>;
  /** Opens the world's Tick stream; budgetMs: its messages' default budget. */
  tick(options?: {budgetMs?: number}): TickStream;
  on(event: 'recreated', listener: (e: RecreatedEvent) => void): this;
  once(event: 'recreated', listener: (e: RecreatedEvent) => void): this;
}
