"""What a client sends to a world (world.proto), as small dataclasses, and
their conversion to collide.v1 messages.

Wherever the world API takes one of these it also takes the collide.v1
message itself or a dict in the proto's JSON form (vectors and quaternions
may be sequences there too):

    {"id": 7, "pose": {"position": [0, 0, 1]},
     "parts": [{"id": 0, "shape": {"sphere": {"center": [0, 0, 1.6], "radius": 0.2}}}]}

Units, frames and semantics are world.proto's. Times are a tick (int) or a
(tick, fraction) pair; None is the latest frame. Category masks: 0 means all
64 bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Tuple, Type, TypeVar, Union

from google.protobuf.message import Message

from collide.shapes import Vec, _vec, ray_to_proto, request_from_dict, shape_to_proto
from collide.v1 import collide_pb2, geometry_pb2, world_pb2

M = TypeVar("M", bound=Message)
At = Union[None, int, Tuple[int, float], world_pb2.WorldTime]


@dataclass(frozen=True)
class Pose:
    """x_world = position + rotation * x_local; rotation (w, x, y, z), None:
    identity."""

    position: Vec = (0.0, 0.0, 0.0)
    rotation: Optional[Sequence[float]] = None


@dataclass(frozen=True)
class Part:
    """A convex hitbox of a body (sphere, capsule, segment, point, triangle,
    aabb or obb) in the part frame, placed in the body frame by `local`."""

    id: int
    shape: Any
    local: Optional[Any] = None


@dataclass(frozen=True)
class Body:
    """One body's entry in a frame (world.proto BodyUpdate): a new body needs
    a pose and parts; a known one changes what is given."""

    id: int
    pose: Optional[Any] = None
    parts: Sequence[Any] = ()
    part_poses: Sequence[Tuple[int, Any]] = ()  # (part id, Pose)
    teleport: bool = False
    category: Optional[int] = None
    movement_shape: Optional[Any] = None
    eye: Optional[Vec] = None  # body frame: where its shots start (new bodies: the origin)


@dataclass(frozen=True)
class Frame:
    tick: int
    bodies: Sequence[Any] = ()
    removals: Sequence[int] = ()


@dataclass(frozen=True)
class StaticMesh:
    """Two-sided triangles: vertices as flat x, y, z runs (any iterable of
    numbers, numpy arrays too), indices three per triangle."""

    id: int
    vertices: Iterable[float]
    indices: Iterable[int]
    category: int = 0


@dataclass(frozen=True)
class StaticShape:
    id: int
    shape: Any
    category: int = 0


@dataclass(frozen=True)
class StaticMap:
    """A map file in the server's --maps_dir ("q3dm17.pk3", "level.glb");
    `map` picks one map of a pk3 holding several; `geometry` the categories
    ("solid", "player_clip", "MAP_GEOMETRY_RENDER" or ints; empty: render)."""

    id: int
    name: str
    map: str = ""
    category: int = 0
    geometry: Sequence[Union[str, int]] = ()


@dataclass(frozen=True)
class Policy:
    """world.proto WorldPolicy; None keeps the server's default."""

    max_rewind_ticks: Optional[int] = None
    max_origin_offset: Optional[float] = None
    default_max_speed: Optional[float] = None
    skin_width: Optional[float] = None
    slide_iterations: Optional[int] = None
    clamp_old_shots: Optional[bool] = None
    max_tick_distance: Optional[float] = None
    move_category_mask: Optional[int] = None
    shot_category_mask: Optional[int] = None
    # A world_pb2.MovementModel or its JSON dict ({"preset": "MOVEMENT_PRESET_QUAKE"}).
    movement: Any = None
    # A world_pb2.MoveBudget or its JSON dict ({"tick_seconds": 0.016, "max_speed": 320}).
    move_budget: Any = None
    # A world_pb2.VisibilityPolicy or its JSON dict ({"occluder_category_mask": 4}).
    visibility: Any = None


@dataclass(frozen=True)
class RayCast:
    """mode: "closest", "any" or "all" (sorted by distance, max_hits kept)."""

    ray: Any
    at: At = None
    mask: int = 0
    ignore: Sequence[int] = ()
    mode: str = "closest"
    max_hits: int = 0


@dataclass(frozen=True)
class ShapeCast:
    shape: Any
    translation: Vec
    at: At = None
    mask: int = 0
    ignore: Sequence[int] = ()


@dataclass(frozen=True)
class Overlap:
    """level: "intersect" (targets only), "distance" or "contact"."""

    shape: Any
    at: At = None
    mask: int = 0
    ignore: Sequence[int] = ()
    level: str = "intersect"
    max_results: int = 0


@dataclass(frozen=True)
class Shot:
    """claimed: (body id, part id), or None for "the first part it meets".
    at: the time the shooter saw; command_at: the time of its command (where
    the server knows the shooter; None: the latest frame); expected_at and
    max_skew_ticks: the view time the server's latency estimate expects and
    the skew allowed (VIEW_TIME_IMPLAUSIBLE beyond); mask and ignore: what
    the ray sees (world.proto Shot)."""

    shooter: int
    origin: Vec
    direction: Vec
    max_range: Optional[float] = None
    at: At = None
    claimed: Optional[Tuple[int, int]] = None
    tolerance: float = 0.0
    command_at: At = None
    expected_at: At = None
    max_skew_ticks: float = 0.0
    mask: int = 0
    ignore: Sequence[int] = ()


@dataclass(frozen=True)
class Move:
    """from_ None: the body's position in the frame before the latest."""

    body: int
    to: Vec
    elapsed: float
    from_: Optional[Vec] = None
    max_speed: Optional[float] = None
    slide: bool = False
    mask: int = 0
    # With a movement model (docs/moves.md): the stance's index, and this
    # move's own model (a world_pb2.MovementModel or its JSON dict).
    stance: int = 0
    movement: Any = None


@dataclass(frozen=True)
class Projectile:
    """A projectile launched at `at` (docs/projectiles.md): velocity in
    units/s, gravity in units/s^2, drag k in 1/s (dv/dt = gravity - k v),
    radius 0 for a point; restitution and max_bounces for bouncing off
    statics; time_limit seconds; tick_seconds the world's tick length;
    chord_tolerance the accuracy contract (0: 0.01). claimed: (body id, part
    id) or None. command_at: the time of the launch command, where the
    origin is checked against the shooter's eye (None: the latest frame;
    keep it when asking again about a flight on later ticks)."""

    shooter: int
    origin: Vec
    velocity: Vec
    tick_seconds: float
    time_limit: float
    at: At = None
    gravity: Vec = (0.0, 0.0, 0.0)
    drag: float = 0.0
    radius: float = 0.0
    restitution: float = 0.0
    max_bounces: int = 0
    chord_tolerance: float = 0.0
    claimed: Optional[Tuple[int, int]] = None
    mask: int = 0
    ignore: Sequence[int] = ()
    command_at: At = None


@dataclass(frozen=True)
class MeleeArc:
    """A sector around the attacker's eye: `angle` radians wide around
    `direction`, `radius` long, in the plane perpendicular to `up`."""

    direction: Vec
    up: Vec
    radius: float
    angle: float


@dataclass(frozen=True)
class MeleeSweep:
    """A capsule ((a, b, radius) or geometry Capsule JSON) moved from `from_`
    to `to`, in the attacker's body frame."""

    from_: Any
    to: Any


@dataclass(frozen=True)
class Melee:
    """A swing at `at`: reach a MeleeArc or MeleeSweep; claimed (body id,
    part id) or None; tolerance grows the claimed body's parts."""

    attacker: int
    reach: Any
    at: At = None
    claimed: Optional[Tuple[int, int]] = None
    tolerance: float = 0.0
    mask: int = 0
    ignore: Sequence[int] = ()


def message(value: Any, message_type: Type[M]) -> M:
    """`value` as a `message_type`: the message itself, or its JSON dict."""
    if isinstance(value, message_type):
        return value
    if isinstance(value, dict):
        return request_from_dict(value, message_type)
    raise TypeError(f"not a {message_type.DESCRIPTOR.name}: {value!r}")


def time_to_proto(at: At) -> Optional[world_pb2.WorldTime]:
    if at is None or isinstance(at, world_pb2.WorldTime):
        return at
    if isinstance(at, int):
        return world_pb2.WorldTime(tick=at)
    tick, fraction = at
    return world_pb2.WorldTime(tick=tick, fraction=fraction)


def pose_to_proto(pose: Any) -> world_pb2.Pose:
    if not isinstance(pose, Pose):
        return message(pose, world_pb2.Pose)
    out = world_pb2.Pose(position=_vec(pose.position))
    if pose.rotation is not None:
        w, x, y, z = pose.rotation
        out.rotation.CopyFrom(geometry_pb2.Quaternion(w=w, x=x, y=y, z=z))
    return out


def part_to_proto(part: Any) -> world_pb2.BodyPart:
    if not isinstance(part, Part):
        return message(part, world_pb2.BodyPart)
    out = world_pb2.BodyPart(id=part.id, shape=shape_to_proto(part.shape))
    if part.local is not None:
        out.local.CopyFrom(pose_to_proto(part.local))
    return out


def body_to_proto(body: Any) -> world_pb2.BodyUpdate:
    if not isinstance(body, Body):
        return message(body, world_pb2.BodyUpdate)
    out = world_pb2.BodyUpdate(id=body.id, teleport=body.teleport,
                               parts=[part_to_proto(p) for p in body.parts])
    if body.pose is not None:
        out.pose.CopyFrom(pose_to_proto(body.pose))
    for part, local in body.part_poses:
        out.part_poses.add(part=part, local=pose_to_proto(local))
    if body.category is not None:
        out.category = body.category
    if body.movement_shape is not None:
        out.movement_shape.CopyFrom(shape_to_proto(body.movement_shape))
    if body.eye is not None:
        out.eye.CopyFrom(_vec(body.eye))
    return out


def frame_to_proto(frame: Any) -> world_pb2.Frame:
    if not isinstance(frame, Frame):
        return message(frame, world_pb2.Frame)
    return world_pb2.Frame(tick=frame.tick, bodies=[body_to_proto(b) for b in frame.bodies],
                           removals=list(frame.removals))


def flat(values: Iterable[Any]) -> list:
    """A flat list from any iterable of numbers; numpy arrays (any shape) in
    one call rather than element by element."""
    tolist = getattr(values, "tolist", None)
    if tolist is not None and hasattr(values, "ravel"):
        return values.ravel().tolist()
    return list(values)


def static_to_proto(element: Any) -> world_pb2.StaticElement:
    if isinstance(element, StaticMesh):
        return world_pb2.StaticElement(id=element.id, category=element.category, mesh=world_pb2.Mesh(
            vertices=flat(element.vertices), indices=flat(element.indices)))
    if isinstance(element, StaticShape):
        return world_pb2.StaticElement(id=element.id, category=element.category,
                                       shape=shape_to_proto(element.shape))
    if isinstance(element, StaticMap):
        return world_pb2.StaticElement(id=element.id, category=element.category,
                                       map_file=world_pb2.MapFile(name=element.name, map=element.map, geometry=[
                                           enum_value(world_pb2.MapGeometry, "MAP_GEOMETRY_", g)
                                           for g in element.geometry]))
    return message(element, world_pb2.StaticElement)


@dataclass(frozen=True)
class Journal:
    """world.proto WorldJournal: what the server keeps of the world's calls
    (docs/replay.md), each needing its server flag (--audit_dir,
    --recordings_dir; else CreateWorld is FAILED_PRECONDITION)."""

    audit: bool = False
    record: bool = False


def journal_to_proto(journal: Any) -> world_pb2.WorldJournal:
    if isinstance(journal, Journal):
        return world_pb2.WorldJournal(audit=journal.audit, record=journal.record)
    return message(journal, world_pb2.WorldJournal)


def policy_to_proto(policy: Any) -> world_pb2.WorldPolicy:
    if not isinstance(policy, Policy):
        return message(policy, world_pb2.WorldPolicy)
    fields = {k: v for k, v in vars(policy).items() if v is not None}
    if "movement" in fields:
        fields["movement"] = message(fields["movement"], world_pb2.MovementModel)
    if "move_budget" in fields:
        fields["move_budget"] = message(fields["move_budget"], world_pb2.MoveBudget)
    if "visibility" in fields:
        fields["visibility"] = message(fields["visibility"], world_pb2.VisibilityPolicy)
    return world_pb2.WorldPolicy(**fields)


def visibility_to_proto(world_id: str, *, at: At = None, observers: Sequence[int] = (), tick_seconds: float = 0.0,
                        latency: float = 0.0, margin: float = 0.0,
                        target_category_mask: int = 0) -> world_pb2.GetVisibilityRequest:
    """A GetVisibilityRequest (docs/visibility.md): observers empty: every
    body; latency in seconds with the tick length; margin in length units."""
    out = world_pb2.GetVisibilityRequest(world_id=world_id, observers=list(observers), tick_seconds=tick_seconds,
                                         latency=latency, margin=margin,
                                         target_category_mask=target_category_mask)
    when = time_to_proto(at)
    if when is not None:
        out.at.CopyFrom(when)
    return out


def _filter(at: At, mask: int, ignore: Sequence[int]) -> world_pb2.SceneFilter:
    out = world_pb2.SceneFilter(category_mask=mask, ignore_bodies=list(ignore))
    t = time_to_proto(at)
    if t is not None:
        out.at.CopyFrom(t)
    return out


def enum_value(enum_type: Any, prefix: str, value: Union[str, int]) -> Any:
    """An enum value from "all", "ALL", "RAY_MODE_ALL" or an int (passed
    through unchecked: the server validates)."""
    if isinstance(value, int):
        return value
    name = value.upper()
    return enum_type.Value(name if name.startswith(prefix) else prefix + name)


def ray_cast_to_proto(cast: Any) -> world_pb2.WorldRayCast:
    if not isinstance(cast, RayCast):
        return message(cast, world_pb2.WorldRayCast)
    return world_pb2.WorldRayCast(ray=ray_to_proto(cast.ray), filter=_filter(cast.at, cast.mask, cast.ignore),
                                  mode=enum_value(world_pb2.RayMode, "RAY_MODE_", cast.mode),
                                  max_hits=cast.max_hits)


def shape_cast_to_proto(cast: Any) -> world_pb2.WorldShapeCast:
    if not isinstance(cast, ShapeCast):
        return message(cast, world_pb2.WorldShapeCast)
    return world_pb2.WorldShapeCast(shape=shape_to_proto(cast.shape), translation=_vec(cast.translation),
                                    filter=_filter(cast.at, cast.mask, cast.ignore))


def overlap_to_proto(overlap: Any) -> world_pb2.WorldOverlap:
    if not isinstance(overlap, Overlap):
        return message(overlap, world_pb2.WorldOverlap)
    return world_pb2.WorldOverlap(shape=shape_to_proto(overlap.shape),
                                  filter=_filter(overlap.at, overlap.mask, overlap.ignore),
                                  max_results=overlap.max_results,
                                  level=enum_value(collide_pb2.QueryLevel, "QUERY_LEVEL_", overlap.level))


def shot_to_proto(shot: Any) -> world_pb2.Shot:
    if not isinstance(shot, Shot):
        return message(shot, world_pb2.Shot)
    out = world_pb2.Shot(shooter_id=shot.shooter, origin=_vec(shot.origin), direction=_vec(shot.direction),
                         tolerance=shot.tolerance, max_skew_ticks=shot.max_skew_ticks, category_mask=shot.mask,
                         ignore_bodies=list(shot.ignore))
    if shot.max_range is not None and not math.isinf(shot.max_range):
        out.max_range = shot.max_range
    for name in ("at", "command_at", "expected_at"):
        t = time_to_proto(getattr(shot, name))
        if t is not None:
            getattr(out, name).CopyFrom(t)
    if shot.claimed is not None:
        out.claimed.CopyFrom(world_pb2.BodyTarget(body_id=shot.claimed[0], part_id=shot.claimed[1]))
    return out


def move_to_proto(move: Any) -> world_pb2.Move:
    if not isinstance(move, Move):
        return message(move, world_pb2.Move)
    out = world_pb2.Move(body_id=move.body, to=_vec(move.to), elapsed=move.elapsed, slide=move.slide,
                         category_mask=move.mask)
    if move.from_ is not None:
        getattr(out, "from").CopyFrom(_vec(move.from_))  # `from` is a Python keyword
    if move.max_speed is not None:
        out.max_speed = move.max_speed
    out.stance = move.stance
    if move.movement is not None:
        out.movement.CopyFrom(message(move.movement, world_pb2.MovementModel))
    return out


def _claimed(claimed: Optional[Tuple[int, int]]) -> Optional[world_pb2.BodyTarget]:
    return None if claimed is None else world_pb2.BodyTarget(body_id=claimed[0], part_id=claimed[1])


def projectile_to_proto(projectile: Any) -> world_pb2.Projectile:
    if not isinstance(projectile, Projectile):
        return message(projectile, world_pb2.Projectile)
    p = projectile
    out = world_pb2.Projectile(shooter_id=p.shooter, origin=_vec(p.origin), velocity=_vec(p.velocity),
                               gravity=_vec(p.gravity), drag=p.drag, radius=p.radius, restitution=p.restitution,
                               max_bounces=p.max_bounces, time_limit=p.time_limit, tick_seconds=p.tick_seconds,
                               chord_tolerance=p.chord_tolerance, category_mask=p.mask, ignore_bodies=list(p.ignore))
    for name in ("at", "command_at"):
        t = time_to_proto(getattr(p, name))
        if t is not None:
            getattr(out, name).CopyFrom(t)
    if p.claimed is not None:
        out.claimed.CopyFrom(_claimed(p.claimed))
    return out


def _capsule(c: Any) -> geometry_pb2.Capsule:
    if isinstance(c, (tuple, list)):
        return geometry_pb2.Capsule(a=_vec(c[0]), b=_vec(c[1]), radius=c[2])
    return message(c, geometry_pb2.Capsule)


def melee_to_proto(melee: Any) -> world_pb2.Melee:
    if not isinstance(melee, Melee):
        return message(melee, world_pb2.Melee)
    m = melee
    out = world_pb2.Melee(attacker_id=m.attacker, tolerance=m.tolerance, category_mask=m.mask,
                          ignore_bodies=list(m.ignore))
    if isinstance(m.reach, MeleeArc):
        out.arc.CopyFrom(world_pb2.MeleeArc(direction=_vec(m.reach.direction), up=_vec(m.reach.up),
                                            radius=m.reach.radius, angle=m.reach.angle))
    elif isinstance(m.reach, MeleeSweep):
        getattr(out.sweep, "from").CopyFrom(_capsule(m.reach.from_))  # `from` is a Python keyword
        out.sweep.to.CopyFrom(_capsule(m.reach.to))
    else:
        raise TypeError("Melee.reach must be a MeleeArc or a MeleeSweep")
    t = time_to_proto(m.at)
    if t is not None:
        out.at.CopyFrom(t)
    if m.claimed is not None:
        out.claimed.CopyFrom(_claimed(m.claimed))
    return out
