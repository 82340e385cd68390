"""World answers (world.proto) as plain dataclasses. Field names are the
proto's; vectors are (x, y, z) tuples; codes drop their enum prefix
("CONFIRMED", "BLOCKED", "OK") and are collide.codes enums (ShotCode,
MoveCode), which equal those strings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from collide.codes import verdict_code
from collide.results import PairResult, Vec3, _vec
from collide.v1 import world_pb2


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

    @classmethod
    def from_proto(cls, v: world_pb2.ShotVerdict) -> "ShotVerdict":
        return cls(_code(world_pb2.ShotCode, v.code, "SHOT_CODE_"),
                   WorldRayHit.from_proto(v.first_hit) if v.HasField("first_hit") else None,
                   TimeUsed.from_proto(v.time), v.claimed_miss_distance, v.origin_offset,
                   [(x.field, x.description) for x in v.violations], v.origin_allowance,
                   v.rewound_across_teleport)


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

    @classmethod
    def from_proto(cls, v: world_pb2.MoveVerdict) -> "MoveVerdict":
        return cls(_code(world_pb2.MoveCode, v.code, "MOVE_CODE_"), _vec(v.allowed_position), v.t,
                   _vec(v.normal), _target(v), v.depth, v.speed, _vec(v.slid_position),
                   [(x.field, x.description) for x in v.violations], v.grounded)


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
    the order asked (every body by id when none was named); pairs judged
    and of them hidden."""

    sets: List[VisibilitySet]
    pairs: int
    hidden: int
    time: TimeUsed

    def visible(self) -> Dict[int, List[int]]:
        """{observer: the bodies it may see} for the observers found."""
        return {s.observer: s.visible for s in self.sets if s.found}

    @classmethod
    def from_proto(cls, r: world_pb2.GetVisibilityResponse) -> "VisibilitySets":
        return cls([VisibilitySet(s.observer, s.found, list(s.visible)) for s in r.sets], r.pairs, r.hidden,
                   TimeUsed.from_proto(r.time))


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
                            "OverlapResult", "QueryResults", "ShotVerdict", "MoveVerdict",
                            "PackedWorldRayHits", "VisibilitySet", "VisibilitySets", "WorldInfo", "count_codes")
