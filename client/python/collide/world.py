"""One world on a collide-server (collide.v1.WorldService): a handle that
sets the `collide-world` header on every call and keeps what it needs to
re-create the world when its replica lost it.

Re-creation: a world lives in one replica's memory; when that replica
restarts, or a proxy's hash ring moves the world elsewhere, calls answer
NOT_FOUND with ErrorInfo reason WORLD_NOT_FOUND. A handle made by
Client.create_world keeps the creation request and the state of every body
after the latest frame it pushed; on WORLD_NOT_FOUND (and recreate=True, the
default) it creates the world again, pushes that state as one frame at the
latest tick, retries the call once, and reports that the history was lost:
`history_lost` counts these, `on_history_lost(world)` is called, and the
"collide" logger warns. Rewinds before the re-creation are clamped to it
until the history refills.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, TypeVar

import grpc

from collide.errors import CollideError
from collide.v1 import world_pb2
from collide.world_inputs import (
    At,
    flat,
    frame_to_proto,
    melee_to_proto,
    move_to_proto,
    overlap_to_proto,
    projectile_to_proto,
    ray_cast_to_proto,
    shape_cast_to_proto,
    shot_to_proto,
    time_to_proto,
    visibility_to_proto,
)
from collide.world_results import (
    Bodies,
    MeleeVerdict,
    MoveVerdict,
    PackedWorldRayHits,
    ProjectileVerdict,
    QueryResults,
    RayResult,
    ShotVerdict,
    VisibilitySets,
    WorldInfo,
)

if TYPE_CHECKING:
    from collide.client import Client
    from collide.stream import AsyncTickStream, TickStream

HEADER = "collide-world"
_log = logging.getLogger("collide")
R = TypeVar("R")


# ticks[i] of a packed shot at the latest frame (world.proto: INT64_MIN, never a tick).
LATEST_TICK = -(2**63)

class World:
    """A handle on one world; cheap, thread-safe. Every method raises
    CollideError on failure (NOT_FOUND with reason WORLD_NOT_FOUND when the
    world is gone and cannot be re-created)."""

    def __init__(self, client: "Client", world_id: str,
                 creation: Optional[world_pb2.CreateWorldRequest] = None, *, recreate: bool = True,
                 on_history_lost: Optional[Callable[["World"], None]] = None):
        self._client = client
        self.world_id = world_id
        self.metadata = ((HEADER, world_id),)
        self._creation = creation
        self.recreate = recreate
        self.on_history_lost = on_history_lost
        # Times the world was re-created (its history lost).
        self.history_lost = 0
        # What CreateWorld answered (Client.create_world only).
        self.created: Optional[WorldInfo] = None
        self._lock = threading.Lock()
        self._latest_tick: Optional[int] = None
        self._bodies: Dict[int, world_pb2.BodyUpdate] = {}

    # -- management -----------------------------------------------------------

    def info(self) -> WorldInfo:
        return WorldInfo.from_proto(self.call("GetWorld", world_pb2.GetWorldRequest(world_id=self.world_id)))

    def delete(self) -> None:
        """Deletes the world; the handle then no longer re-creates it."""
        self._creation = None
        self._client._call(self._client._worlds.DeleteWorld,
                           world_pb2.DeleteWorldRequest(world_id=self.world_id), self.metadata)

    # -- frames ---------------------------------------------------------------

    def push_frame(self, frame: Any) -> int:
        """Appends one frame (a Frame, a collide.v1.Frame or its dict); returns
        the oldest tick still kept."""
        request = world_pb2.PushFrameRequest(world_id=self.world_id, frame=frame_to_proto(frame))
        response = self.call("PushFrame", request)
        self.frame_applied(request.frame)
        return int(response.oldest_tick)

    def frame_applied(self, frame: world_pb2.Frame) -> None:
        """Folds a frame the server accepted into the state kept for
        re-creation (bodies not mentioned keep theirs, as on the server)."""
        with self._lock:
            self._latest_tick = frame.tick
            for update in frame.bodies:
                body = self._bodies.setdefault(update.id, world_pb2.BodyUpdate(id=update.id))
                if update.HasField("pose"):
                    body.pose.CopyFrom(update.pose)
                if len(update.parts):
                    del body.parts[:]
                    body.parts.extend(update.parts)
                locals_by_part = {p.part: p.local for p in update.part_poses}
                for part in body.parts:
                    if part.id in locals_by_part:
                        part.local.CopyFrom(locals_by_part[part.id])
                if update.HasField("category"):
                    body.category = update.category
                if update.HasField("movement_shape"):
                    body.movement_shape.CopyFrom(update.movement_shape)
            for removed in frame.removals:
                self._bodies.pop(removed, None)

    def state_frame(self) -> Optional[world_pb2.Frame]:
        """Every body as of the latest frame pushed, as one frame at its tick
        (what a re-creation pushes); None before the first frame."""
        with self._lock:
            if self._latest_tick is None:
                return None
            return world_pb2.Frame(tick=self._latest_tick, bodies=list(self._bodies.values()))

    # -- queries and verdicts -------------------------------------------------

    def query(self, ray_casts: Iterable[Any] = (), shape_casts: Iterable[Any] = (),
              overlaps: Iterable[Any] = ()) -> QueryResults:
        """Ray casts (RayCast), shape casts (ShapeCast) and overlaps (Overlap),
        each at its own time; the answers in the same order."""
        return QueryResults.from_proto(self.call("QueryWorld", self.query_request(ray_casts, shape_casts,
                                                                                  overlaps)))

    def query_request(self, ray_casts: Iterable[Any] = (), shape_casts: Iterable[Any] = (),
                      overlaps: Iterable[Any] = ()) -> world_pb2.QueryWorldRequest:
        return world_pb2.QueryWorldRequest(
            world_id=self.world_id, ray_casts=[ray_cast_to_proto(c) for c in ray_casts],
            shape_casts=[shape_cast_to_proto(c) for c in shape_casts],
            overlaps=[overlap_to_proto(o) for o in overlaps])

    def cast_rays(self, casts: Iterable[Any]) -> List[RayResult]:
        return self.query(ray_casts=casts).ray_casts

    def cast_rays_packed(self, rays: Iterable[float], *, at: At = None, mask: int = 0,
                         ignore: Sequence[int] = ()) -> PackedWorldRayHits:
        """Closest hits of rays given as 7 doubles each (origin, direction,
        max_distance; math.inf unbounded): a list, array.array or numpy
        array (any shape)."""
        return PackedWorldRayHits.from_proto(
            self.call("CastWorldRaysPacked", self.rays_packed_request(rays, at=at, mask=mask, ignore=ignore)))

    def rays_packed_request(self, rays: Iterable[float], *, at: At = None, mask: int = 0,
                            ignore: Sequence[int] = ()) -> world_pb2.CastWorldRaysPackedRequest:
        request = world_pb2.CastWorldRaysPackedRequest(world_id=self.world_id, rays=flat(rays))
        request.filter.category_mask = mask
        request.filter.ignore_bodies.extend(ignore)
        t = time_to_proto(at)
        if t is not None:
            request.filter.at.CopyFrom(t)
        return request

    def validate_shots(self, shots: Iterable[Any], *, all_or_nothing: bool = False,
                       explain: bool = False) -> List[ShotVerdict]:
        """Shot verdicts (Shot, collide.v1.Shot or its dict), in order. A bad
        shot's verdict is INVALID with its violations; all_or_nothing=True
        raises InvalidArgument for the whole call instead. explain=True: each
        verdict but INVALID carries its `explanation` (ShotExplanation)."""
        request = self.shots_request(shots, all_or_nothing=all_or_nothing, explain=explain)
        return [ShotVerdict.from_proto(v) for v in self.call("ValidateShots", request).verdicts]

    def shots_request(self, shots: Iterable[Any], *, all_or_nothing: bool = False,
                      explain: bool = False) -> world_pb2.ValidateShotsRequest:
        return world_pb2.ValidateShotsRequest(world_id=self.world_id, shots=[shot_to_proto(s) for s in shots],
                                              all_or_nothing=all_or_nothing, explain=explain)

    def validate_shots_packed(self, doubles: Iterable[float], shooter_ids: Iterable[int],
                              ticks: Iterable[int], claimed_body_ids: Optional[Iterable[int]] = None,
                              claimed_part_ids: Optional[Iterable[int]] = None, *,
                              all_or_nothing: bool = False, explain: bool = False,
                              **optional: Iterable[int]) -> List[ShotVerdict]:
        """Shots in flat arrays (world.proto ValidateShotsPackedRequest: 10
        doubles per shot; tick LATEST_TICK: the latest frame; claimed ids
        None: no claims). Lists, array.array or numpy arrays. The optional
        arrays by keyword: command_ticks, expected_ticks, category_masks,
        ignore_counts and ignore_body_ids."""
        request = self.shots_packed_request(doubles, shooter_ids, ticks, claimed_body_ids, claimed_part_ids,
                                            all_or_nothing=all_or_nothing, explain=explain, **optional)
        return [ShotVerdict.from_proto(v) for v in self.call("ValidateShotsPacked", request).verdicts]

    def shots_packed_request(self, doubles: Iterable[float], shooter_ids: Iterable[int], ticks: Iterable[int],
                             claimed_body_ids: Optional[Iterable[int]] = None,
                             claimed_part_ids: Optional[Iterable[int]] = None, *,
                             all_or_nothing: bool = False, explain: bool = False,
                             **optional: Iterable[int]) -> world_pb2.ValidateShotsPackedRequest:
        ids = flat(shooter_ids)
        no_claim = [-1] * len(ids)
        return world_pb2.ValidateShotsPackedRequest(
            world_id=self.world_id, doubles=flat(doubles), shooter_ids=ids, ticks=flat(ticks),
            claimed_body_ids=no_claim if claimed_body_ids is None else flat(claimed_body_ids),
            claimed_part_ids=no_claim if claimed_part_ids is None else flat(claimed_part_ids),
            all_or_nothing=all_or_nothing, explain=explain, **{k: flat(v) for k, v in optional.items()})

    def validate_moves(self, moves: Iterable[Any], *, all_or_nothing: bool = False,
                       explain: bool = False) -> List[MoveVerdict]:
        """Move verdicts (Move, collide.v1.Move or its dict), in order; bad
        moves as validate_shots' bad shots; explain=True: each verdict but
        INVALID carries its `explanation` (MoveExplanation)."""
        request = self.moves_request(moves, all_or_nothing=all_or_nothing, explain=explain)
        return [MoveVerdict.from_proto(v) for v in self.call("ValidateMoves", request).verdicts]

    def moves_request(self, moves: Iterable[Any], *, all_or_nothing: bool = False,
                      explain: bool = False) -> world_pb2.ValidateMovesRequest:
        return world_pb2.ValidateMovesRequest(world_id=self.world_id, moves=[move_to_proto(m) for m in moves],
                                              all_or_nothing=all_or_nothing, explain=explain)

    def get_bodies(self, at: At = None, body_ids: Iterable[int] = ()) -> Bodies:
        """The bodies at `at` (None: the latest frame; tick or (tick,
        fraction)) as the verdicts pose them: those in body_ids (at most the
        server's --max_items_per_request), or every body; missing ids listed."""
        return Bodies.from_proto(self.call("GetBodies", self.bodies_request(at, body_ids)))

    def bodies_request(self, at: At = None, body_ids: Iterable[int] = ()) -> world_pb2.GetBodiesRequest:
        request = world_pb2.GetBodiesRequest(world_id=self.world_id, body_ids=list(body_ids))
        t = time_to_proto(at)
        if t is not None:
            request.at.CopyFrom(t)
        return request

    def validate_projectiles(self, projectiles: Iterable[Any], *,
                             all_or_nothing: bool = False) -> List[ProjectileVerdict]:
        """Projectile verdicts (Projectile, collide.v1.Projectile or its
        dict), in order (docs/projectiles.md); bad ones as validate_shots'."""
        request = self.projectiles_request(projectiles, all_or_nothing=all_or_nothing)
        return [ProjectileVerdict.from_proto(v) for v in self.call("ValidateProjectiles", request).verdicts]

    def projectiles_request(self, projectiles: Iterable[Any], *,
                            all_or_nothing: bool = False) -> world_pb2.ValidateProjectilesRequest:
        return world_pb2.ValidateProjectilesRequest(
            world_id=self.world_id, projectiles=[projectile_to_proto(p) for p in projectiles],
            all_or_nothing=all_or_nothing)

    def validate_melee(self, swings: Iterable[Any], *, all_or_nothing: bool = False) -> List[MeleeVerdict]:
        """Melee verdicts (Melee, collide.v1.Melee or its dict), in order."""
        request = self.melee_request(swings, all_or_nothing=all_or_nothing)
        return [MeleeVerdict.from_proto(v) for v in self.call("ValidateMelee", request).verdicts]

    def melee_request(self, swings: Iterable[Any], *,
                      all_or_nothing: bool = False) -> world_pb2.ValidateMeleeRequest:
        return world_pb2.ValidateMeleeRequest(world_id=self.world_id, melee=[melee_to_proto(m) for m in swings],
                                              all_or_nothing=all_or_nothing)

    def get_visibility(self, *, at: At = None, observers: Sequence[int] = (), tick_seconds: float = 0.0,
                       latency: float = 0.0, margin: float = 0.0, target_category_mask: int = 0) -> VisibilitySets:
        """For each observer (empty: every body), the bodies it may see
        (docs/visibility.md): send each client only those. latency:
        seconds of look-ahead (with tick_seconds, the server's tick length);
        margin: length units around every region."""
        request = visibility_to_proto(self.world_id, at=at, observers=observers, tick_seconds=tick_seconds,
                                      latency=latency, margin=margin, target_category_mask=target_category_mask)
        return VisibilitySets.from_proto(self.call("GetVisibility", request))

    # -- the tick stream --------------------------------------------------------

    def stream(self, *, budget_ms: float = 0.0, timeout: Optional[float] = None) -> "TickStream":
        """A Tick stream on this world (collide.stream): frames and batches
        in order on one call. budget_ms: each message's default budget (0:
        none). timeout: the whole stream's deadline (None: none)."""
        from collide.stream import TickStream

        return TickStream(self, budget_ms, timeout)

    def stream_async(self, *, channel: Optional[grpc.aio.Channel] = None, budget_ms: float = 0.0,
                     timeout: Optional[float] = None) -> "AsyncTickStream":
        """The Tick stream on grpc.aio, inside a running event loop: on
        `channel`, or on a new one to the client's target with its options
        and credentials (closed with the stream)."""
        from collide.stream import AsyncTickStream

        own = channel is None
        if channel is None:
            channel = self._client.aio_channel()
        return AsyncTickStream(self, channel, budget_ms, timeout, own_channel=own)

    # -- the call path ----------------------------------------------------------

    def call(self, rpc: str, request: Any) -> Any:
        """WorldService.<rpc>(request) with the header, re-creating the world
        once on WORLD_NOT_FOUND."""
        method = getattr(self._client._worlds, rpc)
        try:
            return self._client._call(method, request, self.metadata)
        except CollideError as e:
            if not self.recover(e):
                raise
        return self._client._call(method, request, self.metadata)

    def recreates(self, error: CollideError) -> bool:
        """True when `error` says the world was lost and this handle can
        re-create it."""
        return error.reason == "WORLD_NOT_FOUND" and self.recreate and self._creation is not None

    def recover(self, error: CollideError) -> bool:
        """Re-creates the world if `error` says it was lost and this handle
        can; True when it did (the caller retries once)."""
        if not self.recreates(error):
            return False
        self._ignoring(grpc.StatusCode.ALREADY_EXISTS, self._client._worlds.CreateWorld, self._creation)
        frame = self.state_frame()
        if frame is not None:
            # FAILED_PRECONDITION: another handle re-created it and pushed first.
            self._ignoring(grpc.StatusCode.FAILED_PRECONDITION, self._client._worlds.PushFrame,
                           world_pb2.PushFrameRequest(world_id=self.world_id, frame=frame))
        self.history_lost += 1
        _log.warning("world %r was lost by the server (%s) and re-created at tick %s; its history is lost",
                     self.world_id, error.message, frame.tick if frame is not None else "none")
        if self.on_history_lost is not None:
            self.on_history_lost(self)
        return True

    def _ignoring(self, code: grpc.StatusCode, method: Any, request: Any) -> None:
        try:
            self._client._call(method, request, self.metadata)
        except CollideError as e:
            if e.code != code:
                raise
