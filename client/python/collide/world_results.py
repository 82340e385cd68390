"""World answers (world.proto) as plain dataclasses. Field names are the
proto's; vectors are (x, y, z) tuples; codes drop their enum prefix
("CONFIRMED", "BLOCKED", "OK") and are collide.codes enums (ShotCode,
MoveCode), which equal those strings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from collide.codes import verdict_code
from collide.results import PairResult, Vec3, _vec
from collide.shapes import Aabb, Capsule, Obb, Point, Segment, Sphere, Triangle
from collide.v1 import geometry_pb2, world_pb2
from collide.world_inputs import Pose


@dataclass(frozen=True)
class Target:
    """What a hit touched. kind "static": id is the element, index its mesh
    triangle (0 for a shape); kind "body": id is the body, index the part."""

    kind: str
    id: int
    index: int

    @classmethod
    def from_proto(cls, t: world_pb2.Target) -> Optional["Target"]:
        which = t.WhichOneof("target")
        if which == "static_element":
            return cls("static", t.static_element.element_id, t.static_element.triangle)
        if which == "body":
            return cls("body", t.body.body_id, t.body.part_id)
        return None


@dataclass(frozen=True)
class TimeUsed:
    """The time a query was answered at; clamped: the requested one lay
    outside the kept history."""

    tick: int
    fraction: float
    clamped: bool

    @classmethod
    def from_proto(cls, t: world_pb2.TimeUsed) -> "TimeUsed":
        return cls(t.at.tick, t.at.fraction, t.clamped)


@dataclass(frozen=True)
class WorldRayHit:
    distance: float
    point: Vec3
    normal: Vec3
    target: Optional[Target]

    @classmethod
    def from_proto(cls, h: world_pb2.WorldRayHit) -> "WorldRayHit":
        return cls(h.distance, _vec(h.point), _vec(h.normal), Target.from_proto(h.target))


@dataclass(frozen=True)
class RayResult:
    """hits: empty on a miss, one for closest/any, sorted and capped for all."""

    hits: List[WorldRayHit]
    total_hits: int
    time: TimeUsed

    @classmethod
    def from_proto(cls, r: world_pb2.WorldRayResult) -> "RayResult":
        return cls([WorldRayHit.from_proto(h) for h in r.hits], r.total_hits, TimeUsed.from_proto(r.time))


@dataclass(frozen=True)
class ShapeCastResult:
    hit: bool
    t: float
    point: Vec3
    normal: Vec3
    depth: float
    target: Optional[Target]
    time: TimeUsed

    @classmethod
    def from_proto(cls, r: world_pb2.WorldShapeCastResult) -> "ShapeCastResult":
        return cls(r.hit, r.t, _vec(r.point), _vec(r.normal), r.depth, _target(r),
                   TimeUsed.from_proto(r.time))


@dataclass(frozen=True)
class OverlapHit:
    target: Optional[Target]
    contact: Optional[PairResult]  # None at level "intersect"

    @classmethod
    def from_proto(cls, o: world_pb2.WorldOverlapResult.Overlap) -> "OverlapHit":
        return cls(Target.from_proto(o.target),
                   PairResult.from_proto(o.contact) if o.HasField("contact") else None)


@dataclass(frozen=True)
class OverlapResult:
    overlaps: List[OverlapHit]
    total: int
    time: TimeUsed

    @classmethod
    def from_proto(cls, r: world_pb2.WorldOverlapResult) -> "OverlapResult":
        return cls([OverlapHit.from_proto(o) for o in r.overlaps], r.total, TimeUsed.from_proto(r.time))


@dataclass(frozen=True)
class QueryResults:
    """QueryWorld's answers, each list in its request's order."""

    ray_casts: List[RayResult] = field(default_factory=list)
    shape_casts: List[ShapeCastResult] = field(default_factory=list)
    overlaps: List[OverlapResult] = field(default_factory=list)

    @classmethod
    def from_proto(cls, r: world_pb2.QueryWorldResponse) -> "QueryResults":
        return cls([RayResult.from_proto(x) for x in r.ray_casts],
                   [ShapeCastResult.from_proto(x) for x in r.shape_casts],
                   [OverlapResult.from_proto(x) for x in r.overlaps])


def shape_from_proto(s: geometry_pb2.Shape) -> Any:
    """A posed part's shape (collide.shapes: Sphere, Capsule, Obb, ...; a
    box part comes back as an Obb, rotation (w, x, y, z))."""
    which = s.WhichOneof("shape")
    m = getattr(s, which) if which else None
    if which == "sphere":
        return Sphere(_vec(m.center), m.radius)
    if which == "capsule":
        return Capsule(_vec(m.a), _vec(m.b), m.radius)
    if which == "obb":
        return Obb(_vec(m.center), _vec(m.half_extents), (m.rotation.w, m.rotation.x, m.rotation.y, m.rotation.z))
    if which == "aabb":
        return Aabb(_vec(m.min), _vec(m.max))
    if which == "segment":
        return Segment(_vec(m.a), _vec(m.b))
    if which == "point":
        return Point(_vec(m.position))
    if which == "triangle":
        return Triangle(_vec(m.a), _vec(m.b), _vec(m.c))
    return None


def _pose(p: world_pb2.Pose) -> Pose:
    r = p.rotation if p.HasField("rotation") else None
    return Pose(_vec(p.position), (r.w, r.x, r.y, r.z) if r is not None else (1.0, 0.0, 0.0, 0.0))


@dataclass(frozen=True)
class PosedPart:
    id: int
    shape: Any  # world frame (collide.shapes)


@dataclass(frozen=True)
class PosedBody:
    """A body as posed at a time, world frame: pose (body -> world), parts
    placed, category, eye."""

    id: int
    pose: Pose
    parts: List[PosedPart]
    category: int
    eye: Vec3

    @classmethod
    def from_proto(cls, b: world_pb2.PosedBody) -> "PosedBody":
        return cls(b.id, _pose(b.pose), [PosedPart(p.id, shape_from_proto(p.shape)) for p in b.parts],
                   b.category, _vec(b.eye))


@dataclass(frozen=True)
class Bodies:
    """GetBodies: the time used, the bodies sorted by id, the requested ids
    that do not exist then."""

    time: TimeUsed
    bodies: List[PosedBody]
    missing: List[int]

    @classmethod
    def from_proto(cls, r: world_pb2.GetBodiesResponse) -> "Bodies":
        return cls(TimeUsed.from_proto(r.time), [PosedBody.from_proto(b) for b in r.bodies], list(r.missing))


def _posed(message: Any, name: str) -> Optional[PosedBody]:
    return PosedBody.from_proto(getattr(message, name)) if message.HasField(name) else None


@dataclass(frozen=True)
class ShotExplanation:
    """What a shot's judge used (docs/worlds.md): command_at (tick,
    fraction) and the shooter then; the ray (origin, unit direction,
    max_distance None: unbounded; None when no ray was cast); with a claim,
    the claimed body rewound and latest, the nearest claimed part and its
    distance."""

    command_at: Tuple[int, float]
    shooter: Optional[PosedBody]
    ray: Optional[Any]  # collide.shapes.Ray
    claimed_rewound: Optional[PosedBody]
    claimed_latest: Optional[PosedBody]
    tolerance: float
    nearest_claimed_part: int
    nearest_claimed_distance: float

    @classmethod
    def from_proto(cls, e: world_pb2.ShotExplanation) -> "ShotExplanation":
        from collide.shapes import Ray

        ray = None
        if e.HasField("ray"):
            r = e.ray
            ray = Ray(_vec(r.origin), _vec(r.direction), r.max_distance if r.HasField("max_distance") else None)
        return cls((e.command_at.tick, e.command_at.fraction), _posed(e, "shooter"), ray,
                   _posed(e, "claimed_rewound"), _posed(e, "claimed_latest"), e.tolerance,
                   e.nearest_claimed_part, e.nearest_claimed_distance)


@dataclass(frozen=True)
class MoveSweep:
    """A sweep of the body origin from_ (the proto's `from`, a Python
    keyword) -> to and why ("straight", "slide", "step up", "ground probe at
    to", ...)."""

    from_: Vec3
    to: Vec3
    purpose: str


@dataclass(frozen=True)
class MoveContact:
    """Contact on sweeps[sweep] at fraction t: the body origin there, the
    normal from the body towards the static, what was met."""

    sweep: int
    t: float
    position: Vec3
    normal: Vec3
    target: Optional[Target]


@dataclass(frozen=True)
class MoveExplanation:
    """What a move's judge used (docs/worlds.md): from_ (resolved) and to,
    the movement shape at from (None when the body moves several parts),
    every sweep and contact, the rule in words, and with a movement model
    the start state and limits."""

    from_: Vec3
    to: Vec3
    shape: Any
    sweeps: List[MoveSweep]
    contacts: List[MoveContact]
    reason: str
    grounded_at_start: bool
    horizontal_limit: float
    lowest_z: float
    highest_z: float

    @classmethod
    def from_proto(cls, e: world_pb2.MoveExplanation) -> "MoveExplanation":
        return cls(_vec(getattr(e, "from")), _vec(e.to), shape_from_proto(e.shape) if e.HasField("shape") else None,
                   [MoveSweep(_vec(getattr(s, "from")), _vec(s.to), s.purpose) for s in e.sweeps],
                   [MoveContact(c.sweep, c.t, _vec(c.position), _vec(c.normal), _target(c)) for c in e.contacts],
                   e.reason, e.grounded_at_start, e.horizontal_limit, e.lowest_z, e.highest_z)


@dataclass(frozen=True)
class ShotVerdict:
    """code: CONFIRMED, HIT_OTHER_PART, HIT_OTHER_BODY, BLOCKED, MISSED,
    REWIND_TOO_OLD, IN_THE_FUTURE, ORIGIN_IMPLAUSIBLE, UNKNOWN_SHOOTER,
    UNKNOWN_TARGET, VIEW_TIME_IMPLAUSIBLE or INVALID (violations: (field,
    description) pairs naming the shot's bad fields)."""

    code: str
    first_hit: Optional[WorldRayHit]
    time: TimeUsed
    claimed_miss_distance: float
    origin_offset: float
    violations: List[Tuple[str, str]] = field(default_factory=list)
    origin_allowance: float = 0.0
    rewound_across_teleport: bool = False
    explanation: Optional[ShotExplanation] = None  # with explain=True

    @classmethod
    def from_proto(cls, v: world_pb2.ShotVerdict) -> "ShotVerdict":
        return cls(_code(world_pb2.ShotCode, v.code, "SHOT_CODE_"),
                   WorldRayHit.from_proto(v.first_hit) if v.HasField("first_hit") else None,
                   TimeUsed.from_proto(v.time), v.claimed_miss_distance, v.origin_offset,
                   [(x.field, x.description) for x in v.violations], v.origin_allowance,
                   v.rewound_across_teleport,
                   ShotExplanation.from_proto(v.explanation) if v.HasField("explanation") else None)


@dataclass(frozen=True)
class MoveVerdict:
    """code: OK, TOO_FAST, BLOCKED, START_PENETRATING, UNKNOWN_BODY or
    INVALID (violations: (field, description) pairs); with a movement model
    also TOO_FAST_HORIZONTAL, TOO_FAST_VERTICAL, STEP_TOO_HIGH, FLYING or
    TOO_STEEP, and `grounded`; with a move budget DISTANCE_BUDGET or
    TIME_BUDGET (docs/moves.md)."""

    code: str
    allowed_position: Vec3
    t: float
    normal: Vec3
    target: Optional[Target]
    depth: float
    speed: float
    slid_position: Vec3
    violations: List[Tuple[str, str]] = field(default_factory=list)
    grounded: bool = False
    explanation: Optional[MoveExplanation] = None  # with explain=True

    @classmethod
    def from_proto(cls, v: world_pb2.MoveVerdict) -> "MoveVerdict":
        return cls(_code(world_pb2.MoveCode, v.code, "MOVE_CODE_"), _vec(v.allowed_position), v.t,
                   _vec(v.normal), _target(v), v.depth, v.speed, _vec(v.slid_position),
                   [(x.field, x.description) for x in v.violations], v.grounded,
                   MoveExplanation.from_proto(v.explanation) if v.HasField("explanation") else None)


@dataclass(frozen=True)
class ProjectileContact:
    """Where a projectile met something: seconds since launch and the world
    time then, its centre, the contact point, the normal (from the
    projectile), and what (a static or a body part as posed then)."""

    seconds: float
    at: Tuple[int, float]
    position: Vec3
    point: Vec3
    normal: Vec3
    target: Optional[Target]

    @classmethod
    def from_proto(cls, c: world_pb2.ProjectileContact) -> "ProjectileContact":
        return cls(c.seconds, (c.at.tick, c.at.fraction), _vec(c.position), _vec(c.point), _vec(c.normal),
                   _target(c))


@dataclass(frozen=True)
class ProjectileVerdict:
    """code: a ProjectileCode (collide.codes). hit: what stopped it (None
    when nothing did); bounces in order; seconds, end_at, position and
    velocity: the end of the judged flight (the hit, the time limit, or the
    latest frame for IN_FLIGHT); origin_offset and origin_allowance: the
    origin against the shooter's eye at command_at (ShotVerdict's)."""

    code: str
    time: TimeUsed
    hit: Optional[ProjectileContact]
    bounces: List[ProjectileContact]
    seconds: float
    end_at: Tuple[int, float]
    position: Vec3
    velocity: Vec3
    violations: List[Tuple[str, str]] = field(default_factory=list)
    origin_offset: float = 0.0
    origin_allowance: float = 0.0

    @classmethod
    def from_proto(cls, v: world_pb2.ProjectileVerdict) -> "ProjectileVerdict":
        return cls(_code(world_pb2.ProjectileCode, v.code, "PROJECTILE_CODE_"), TimeUsed.from_proto(v.time),
                   ProjectileContact.from_proto(v.hit) if v.HasField("hit") else None,
                   [ProjectileContact.from_proto(b) for b in v.bounces], v.seconds, (v.end_at.tick, v.end_at.fraction),
                   _vec(v.position), _vec(v.velocity), [(x.field, x.description) for x in v.violations],
                   v.origin_offset, v.origin_allowance)


@dataclass(frozen=True)
class MeleeHit:
    target: Optional[Target]
    point: Vec3
    distance: float


@dataclass(frozen=True)
class MeleeVerdict:
    """code: a ShotCode (CONFIRMED, HIT_OTHER_PART, HIT_OTHER_BODY, BLOCKED,
    MISSED, ...). hits: the parts reached with a clear line from the eye,
    nearest first; blocker: what blocks the line (BLOCKED, HIT_OTHER_BODY)."""

    code: str
    time: TimeUsed
    eye: Vec3
    hits: List[MeleeHit]
    blocker: Optional[WorldRayHit]
    claimed_miss_distance: float
    violations: List[Tuple[str, str]] = field(default_factory=list)

    @classmethod
    def from_proto(cls, v: world_pb2.MeleeVerdict) -> "MeleeVerdict":
        return cls(_code(world_pb2.ShotCode, v.code, "SHOT_CODE_"), TimeUsed.from_proto(v.time), _vec(v.eye),
                   [MeleeHit(Target.from_proto(h.target), _vec(h.point), h.distance) for h in v.hits],
                   WorldRayHit.from_proto(v.blocker) if v.HasField("blocker") else None, v.claimed_miss_distance,
                   [(x.field, x.description) for x in v.violations])


@dataclass(frozen=True)
class VisibilitySet:
    """The bodies `observer` may see (increasing ids); found False: it does
    not exist at the time (visible empty)."""

    observer: int
    found: bool
    visible: List[int]


@dataclass(frozen=True)
class VisibilitySets:
    """GetVisibility's answer (docs/visibility.md): one set per observer, in
    the order asked (every body by id when none was named); pairs judged,
    of them hidden, and of them answered visible again without a new walk
    (the world's policy.visibility.reuse_ticks)."""

    sets: List[VisibilitySet]
    pairs: int
    hidden: int
    time: TimeUsed
    reused: int = 0

    def visible(self) -> Dict[int, List[int]]:
        """{observer: the bodies it may see} for the observers found."""
        return {s.observer: s.visible for s in self.sets if s.found}

    @classmethod
    def from_proto(cls, r: world_pb2.GetVisibilityResponse) -> "VisibilitySets":
        return cls([VisibilitySet(s.observer, s.found, list(s.visible)) for s in r.sets], r.pairs, r.hidden,
                   TimeUsed.from_proto(r.time), r.reused)


@dataclass(frozen=True)
class PackedWorldRayHits:
    """Parallel arrays: ray i at [i], vectors at [3i:3i+3]; target_kind 0
    none, 1 static (target_index: triangle, 0 for a shape), 2 body (part)."""

    hit: List[bool]
    distance: List[float]
    point: List[float]
    normal: List[float]
    target_kind: List[int]
    target_id: List[int]
    target_index: List[int]
    time: TimeUsed

    def __len__(self) -> int:
        return len(self.hit)

    def numpy(self) -> Dict[str, Any]:
        """The arrays as numpy arrays (needs numpy), vectors shaped (n, 3)."""
        import numpy as np

        return {"hit": np.array(self.hit, dtype=bool), "distance": np.array(self.distance),
                "point": np.array(self.point).reshape(-1, 3), "normal": np.array(self.normal).reshape(-1, 3),
                "target_kind": np.array(self.target_kind, dtype=np.int32),
                "target_id": np.array(self.target_id, dtype=np.int64),
                "target_index": np.array(self.target_index, dtype=np.int64)}

    @classmethod
    def from_proto(cls, r: world_pb2.CastWorldRaysPackedResponse) -> "PackedWorldRayHits":
        return cls(list(r.hit), list(r.distance), list(r.point), list(r.normal), list(r.target_kind),
                   list(r.target_id), list(r.target_index), TimeUsed.from_proto(r.time))


@dataclass(frozen=True)
class WorldInfo:
    world_id: str
    static_elements: int
    triangles: int
    degenerate_triangles: int
    bodies: int
    memory_bytes: int
    latest_tick: int
    oldest_tick: int
    frames_kept: int
    history_ticks: int
    policy: Dict[str, Any]
    replica: str
    detected_teleports: int = 0

    @classmethod
    def from_proto(cls, w: world_pb2.WorldInfo) -> "WorldInfo":
        policy = {f.name: v for f, v in w.policy.ListFields()}
        return cls(w.world_id, w.static_elements, w.triangles, w.degenerate_triangles, w.bodies,
                   w.memory_bytes, w.latest_tick, w.oldest_tick, w.frames_kept, w.history_ticks, policy,
                   w.replica, w.detected_teleports)


def _target(message: Any) -> Optional[Target]:
    return Target.from_proto(message.target) if message.HasField("target") else None


def _code(enum_type: Any, value: int, prefix: str) -> str:
    name: str = enum_type.Name(value)
    return verdict_code(prefix, name[len(prefix):])  # a ShotCode / MoveCode (collide.codes)


Counts = Dict[str, int]


def count_codes(verdicts: List[Any]) -> Counts:
    """{code: how many} over shot or move verdicts."""
    out: Counts = {}
    for v in verdicts:
        out[v.code] = out.get(v.code, 0) + 1
    return out


__all__: Tuple[str, ...] = ("Target", "TimeUsed", "WorldRayHit", "RayResult", "ShapeCastResult", "OverlapHit",
                            "OverlapResult", "QueryResults", "ShotVerdict", "MoveVerdict", "ProjectileContact",
                            "ProjectileVerdict", "MeleeHit", "MeleeVerdict",
                            "PackedWorldRayHits", "VisibilitySet", "VisibilitySets", "WorldInfo", "count_codes",
                            "PosedPart", "PosedBody", "Bodies", "ShotExplanation", "MoveSweep", "MoveContact",
                            "MoveExplanation", "shape_from_proto")
