"""The asyncio client: every RPC of collide.Client as a coroutine, on grpc.aio.

    import asyncio, collide
    from collide.aio import AsyncClient

    async def main():
        async with AsyncClient("127.0.0.1:50051", timeout=5) as c:
            [r] = await c.query_pairs("contact", [(collide.Sphere((0, 0, 0), 1),
                                                   collide.Sphere((1.5, 0, 0), 1))])
            world = await c.create_world("match-1", [collide.StaticShape(1, collide.Aabb((-2, 4, -2), (2, 5, 2)))])
            await world.push_frame(collide.Frame(1, [...]))
            verdicts = await world.validate_shots([...])
            async with world.stream() as s:     # the Tick stream (collide.stream.AsyncTickStream)
                answer = await s.tick(collide.Frame(2, [...]), shots=[...])

    asyncio.run(main())

Inputs and answers are those of the blocking client (collide.world_inputs,
collide.results, collide.world_results); failures raise CollideError. Calls
that change nothing are retried on UNAVAILABLE and CANCELLED like the
blocking client's (max_attempts). AsyncWorld re-creates a world its replica
lost, as World does: the re-creation itself (CreateWorld, then the kept state
as one frame) runs on a blocking client in the loop's default executor, so
on_history_lost is called on that executor's thread.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

import grpc

from collide.client import (
    Client,
    Kind,
    Level,
    _casts_request,
    _create_world_request,
    _pairs_packed_request,
    _pairs_request,
    _rays_packed_request,
)
from collide.errors import CollideError
from collide.health.v1 import health_pb2, health_pb2_grpc
from collide.results import PackedPairResults, PackedRayHits, PairResult, RayHit, ServerInfo
from collide.stream import AsyncTickStream
from collide.v1 import collide_pb2, collide_pb2_grpc, world_pb2, world_pb2_grpc
from collide.world import HEADER, World
from collide.world_inputs import At, frame_to_proto, visibility_to_proto
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


class AsyncClient:
    """A client of one collide-server on asyncio (grpc.aio), inside a running
    event loop.

    target: "host:port". timeout: seconds per call (None: no deadline).
    options: gRPC channel options. max_attempts: tries of a call that
    changes nothing when the server did not run it, with backoff (1: none).
    tls, tls_ca_file, tls_cert_file, tls_key_file, tls_server_name and
    token: as collide.Client's.
    Every coroutine raises CollideError when the call fails. Use as an async
    context manager, or await close().
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, timeout: Optional[float] = None,
                 options: Sequence[Tuple[str, Any]] = (), max_attempts: int = 5, tls: bool = False,
                 tls_ca_file: Optional[str] = None, tls_cert_file: Optional[str] = None,
                 tls_key_file: Optional[str] = None, tls_server_name: Optional[str] = None,
                 token: Optional[str] = None):
        # The blocking client re-creates lost worlds (off the loop) and
        # gives the channel options, its retry policy, credentials and token
        # included.
        self.blocking = Client(target, timeout=timeout, options=options, max_attempts=max_attempts, tls=tls,
                               tls_ca_file=tls_ca_file, tls_cert_file=tls_cert_file, tls_key_file=tls_key_file,
                               tls_server_name=tls_server_name, token=token)
        self.target = target
        self._channel = self.blocking.aio_channel()
        self._stub = collide_pb2_grpc.CollisionServiceStub(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._worlds = world_pb2_grpc.WorldServiceStub(self._channel)
        self._timeout = timeout

    async def close(self) -> None:
        """Closes both channels (calls in flight are cancelled)."""
        await self._channel.close()
        self.blocking.close()

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _call(self, method: Any, request: Any, metadata: Any = None) -> Any:
        try:
            return await method(request, timeout=self._timeout,
                                metadata=self.blocking.auth_metadata + tuple(metadata or ()))
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None

    async def wait_ready(self, timeout: float) -> None:
        """Waits until the server answers a health check (CollideError
        UNAVAILABLE after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                await asyncio.wait_for(self._channel.channel_ready(), max(0.0, deadline - time.monotonic()))
                await self.health()
                return
            except (CollideError, asyncio.TimeoutError) as e:
                if time.monotonic() >= deadline or (isinstance(e, CollideError) and
                                                    e.code != grpc.StatusCode.UNAVAILABLE):
                    raise CollideError(grpc.StatusCode.UNAVAILABLE, f"the server is not ready: {e!r}", []) from None
                await asyncio.sleep(0.02)

    # -- pair queries ---------------------------------------------------------

    async def query_pairs(self, level: Level, pairs: Iterable[Tuple[Any, Any]]) -> List[PairResult]:
        """Queries each (a, b) pair at `level` ("intersect", "distance",
        "contact"); result i answers pair i (Client.query_pairs)."""
        return await self.query_pairs_request(_pairs_request(level, pairs))

    async def query_pairs_request(self, request: collide_pb2.QueryPairsRequest) -> List[PairResult]:
        """QueryPairs with a request built by hand."""
        response = await self._call(self._stub.QueryPairs, request)
        return [PairResult.from_proto(r) for r in response.results]

    async def query_pairs_packed(self, level: Level, kind: Kind, a_flat: Iterable[float],
                                 b_flat: Iterable[float], kind_b: Optional[Kind] = None) -> PackedPairResults:
        """Pairs of shapes as flat runs of doubles (Client.query_pairs_packed)."""
        return await self.query_pairs_packed_request(_pairs_packed_request(level, kind, a_flat, b_flat, kind_b))

    async def query_pairs_packed_request(self, request: collide_pb2.QueryPairsPackedRequest) -> PackedPairResults:
        """QueryPairsPacked with a request built by hand."""
        return PackedPairResults.from_proto(await self._call(self._stub.QueryPairsPacked, request))

    # -- ray casts ----------------------------------------------------------

    async def cast_rays(self, casts: Iterable[Tuple[Any, Any]]) -> List[RayHit]:
        """Casts each (ray, shape); hit i answers cast i."""
        return await self.cast_rays_request(_casts_request(casts))

    async def cast_rays_request(self, request: collide_pb2.CastRaysRequest) -> List[RayHit]:
        """CastRays with a request built by hand."""
        response = await self._call(self._stub.CastRays, request)
        return [RayHit.from_proto(h) for h in response.hits]

    async def cast_rays_packed(self, kind: Kind, rays_flat: Iterable[float],
                               shapes_flat: Iterable[float]) -> PackedRayHits:
        """Ray i (7 doubles) against shape i of `kind` (Client.cast_rays_packed)."""
        return await self.cast_rays_packed_request(_rays_packed_request(kind, rays_flat, shapes_flat))

    async def cast_rays_packed_request(self, request: collide_pb2.CastRaysPackedRequest) -> PackedRayHits:
        """CastRaysPacked with a request built by hand."""
        return PackedRayHits.from_proto(await self._call(self._stub.CastRaysPacked, request))

    # -- worlds -----------------------------------------------------------------

    async def create_world(self, world_id: str, statics: Iterable[Any] = (), *, history_ticks: int = 0,
                           policy: Any = None, journal: Any = None, recreate: bool = True,
                           on_history_lost: Optional[Callable[["AsyncWorld"], None]] = None) -> "AsyncWorld":
        """Creates a world (Client.create_world); the handle re-creates it if
        the server loses it."""
        return await self.create_world_request(
            _create_world_request(world_id, statics, history_ticks, policy, journal),
            recreate=recreate, on_history_lost=on_history_lost)

    async def create_world_request(self, request: world_pb2.CreateWorldRequest, *, recreate: bool = True,
                                   on_history_lost: Optional[Callable[["AsyncWorld"], None]] = None
                                   ) -> "AsyncWorld":
        """CreateWorld with a request built by hand."""
        info = await self._call(self._worlds.CreateWorld, request, ((HEADER, request.world_id),))
        world = AsyncWorld(self, World(self.blocking, request.world_id, request, recreate=recreate))
        if on_history_lost is not None:
            callback = on_history_lost
            world.world.on_history_lost = lambda _: callback(world)
        world.created = WorldInfo.from_proto(info)
        return world

    def world(self, world_id: str) -> "AsyncWorld":
        """A handle on a world created elsewhere (it cannot re-create it)."""
        return AsyncWorld(self, World(self.blocking, world_id))

    async def get_world(self, world_id: str) -> WorldInfo:
        return await self.world(world_id).info()

    async def delete_world(self, world_id: str) -> None:
        await self.world(world_id).delete()

    async def list_worlds(self) -> List[WorldInfo]:
        """The caller's worlds on this replica (behind a proxy: one replica's)."""
        response = await self._call(self._worlds.ListWorlds, world_pb2.ListWorldsRequest())
        return [WorldInfo.from_proto(w) for w in response.worlds]

    # -- service --------------------------------------------------------------

    async def server_info(self) -> ServerInfo:
        """The replica's version, limits and counters (GetServerInfo)."""
        return ServerInfo.from_proto(await self._call(self._stub.GetServerInfo, collide_pb2.GetServerInfoRequest()))

    async def health(self, service: str = "") -> str:
        """grpc.health.v1 status name: "SERVING", "NOT_SERVING", ..."""
        response = await self._call(self._health.Check, health_pb2.HealthCheckRequest(service=service))
        return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)


class AsyncWorld:
    """A handle on one world for coroutines: World's calls awaited. It builds
    its requests and keeps the state for re-creation in a collide.World
    (`world`), which the Tick stream shares."""

    def __init__(self, client: AsyncClient, world: World):
        self._client = client
        self.world = world
        self.world_id = world.world_id
        # What CreateWorld answered (AsyncClient.create_world only).
        self.created: Optional[WorldInfo] = None

    @property
    def history_lost(self) -> int:
        """Times the world was re-created (its history lost)."""
        return self.world.history_lost

    async def call(self, rpc: str, request: Any) -> Any:
        """WorldService.<rpc>(request) with the header, re-creating the world
        once on WORLD_NOT_FOUND (World.recover, off the event loop)."""
        method = getattr(self._client._worlds, rpc)
        try:
            return await self._client._call(method, request, self.world.metadata)
        except CollideError as e:
            if not self.world.recreates(e):
                raise
            lost = e
        await asyncio.get_running_loop().run_in_executor(None, self.world.recover, lost)
        return await self._client._call(method, request, self.world.metadata)

    # -- management -----------------------------------------------------------

    async def info(self) -> WorldInfo:
        """GetWorld: statistics, kept ticks, policy, replica."""
        return WorldInfo.from_proto(await self.call("GetWorld", world_pb2.GetWorldRequest(world_id=self.world_id)))

    async def delete(self) -> None:
        """Deletes the world; the handle then no longer re-creates it."""
        self.world.recreate = False
        await self._client._call(self._client._worlds.DeleteWorld,
                                 world_pb2.DeleteWorldRequest(world_id=self.world_id), self.world.metadata)

    # -- frames, queries and verdicts -------------------------------------------

    async def push_frame(self, frame: Any) -> int:
        """Appends one frame; returns the oldest tick still kept."""
        request = world_pb2.PushFrameRequest(world_id=self.world_id, frame=frame_to_proto(frame))
        response = await self.call("PushFrame", request)
        self.world.frame_applied(request.frame)
        return int(response.oldest_tick)

    async def query(self, ray_casts: Iterable[Any] = (), shape_casts: Iterable[Any] = (),
                    overlaps: Iterable[Any] = ()) -> QueryResults:
        """Ray casts, shape casts and overlaps, each at its own time (World.query)."""
        return QueryResults.from_proto(
            await self.call("QueryWorld", self.world.query_request(ray_casts, shape_casts, overlaps)))

    async def cast_rays(self, casts: Iterable[Any]) -> List[RayResult]:
        return (await self.query(ray_casts=casts)).ray_casts

    async def cast_rays_packed(self, rays: Iterable[float], *, at: At = None, mask: int = 0,
                               ignore: Sequence[int] = ()) -> PackedWorldRayHits:
        """Closest hits of rays given as 7 doubles each (World.cast_rays_packed)."""
        return PackedWorldRayHits.from_proto(await self.call(
            "CastWorldRaysPacked", self.world.rays_packed_request(rays, at=at, mask=mask, ignore=ignore)))

    async def validate_shots(self, shots: Iterable[Any], *, all_or_nothing: bool = False,
                             explain: bool = False) -> List[ShotVerdict]:
        """Shot verdicts, in order; an invalid shot's is INVALID unless
        all_or_nothing (World.validate_shots)."""
        response = await self.call("ValidateShots", self.world.shots_request(shots, all_or_nothing=all_or_nothing,
                                                                             explain=explain))
        return [ShotVerdict.from_proto(v) for v in response.verdicts]

    async def validate_shots_packed(self, doubles: Iterable[float], shooter_ids: Iterable[int],
                                    ticks: Iterable[int], claimed_body_ids: Optional[Iterable[int]] = None,
                                    claimed_part_ids: Optional[Iterable[int]] = None, *,
                                    all_or_nothing: bool = False, explain: bool = False) -> List[ShotVerdict]:
        """Shots in flat arrays (World.validate_shots_packed)."""
        request = self.world.shots_packed_request(doubles, shooter_ids, ticks, claimed_body_ids, claimed_part_ids,
                                                  all_or_nothing=all_or_nothing, explain=explain)
        return [ShotVerdict.from_proto(v) for v in (await self.call("ValidateShotsPacked", request)).verdicts]

    async def validate_moves(self, moves: Iterable[Any], *, all_or_nothing: bool = False,
                             explain: bool = False) -> List[MoveVerdict]:
        """Move verdicts, in order; an invalid move's is INVALID unless
        all_or_nothing (World.validate_moves)."""
        response = await self.call("ValidateMoves", self.world.moves_request(moves, all_or_nothing=all_or_nothing,
                                                                             explain=explain))
        return [MoveVerdict.from_proto(v) for v in response.verdicts]

    async def get_bodies(self, at: At = None, body_ids: Iterable[int] = ()) -> Bodies:
        """The bodies at a time as the verdicts pose them (World.get_bodies)."""
        return Bodies.from_proto(await self.call("GetBodies", self.world.bodies_request(at, body_ids)))
    async def validate_projectiles(self, projectiles: Iterable[Any], *,
                                   all_or_nothing: bool = False) -> List[ProjectileVerdict]:
        """Projectile verdicts, in order (World.validate_projectiles)."""
        request = self.world.projectiles_request(projectiles, all_or_nothing=all_or_nothing)
        return [ProjectileVerdict.from_proto(v) for v in (await self.call("ValidateProjectiles", request)).verdicts]

    async def validate_melee(self, swings: Iterable[Any], *, all_or_nothing: bool = False) -> List[MeleeVerdict]:
        """Melee verdicts, in order (World.validate_melee)."""
        request = self.world.melee_request(swings, all_or_nothing=all_or_nothing)
        return [MeleeVerdict.from_proto(v) for v in (await self.call("ValidateMelee", request)).verdicts]

    async def get_visibility(self, *, at: Any = None, observers: Iterable[int] = (), tick_seconds: float = 0.0,
                             latency: float = 0.0, margin: float = 0.0,
                             target_category_mask: int = 0) -> VisibilitySets:
        """Visibility sets (World.get_visibility)."""
        request = visibility_to_proto(self.world.world_id, at=at, observers=list(observers),
                                      tick_seconds=tick_seconds, latency=latency, margin=margin,
                                      target_category_mask=target_category_mask)
        return VisibilitySets.from_proto(await self.call("GetVisibility", request))

    # -- the tick stream --------------------------------------------------------

    def stream(self, *, budget_ms: float = 0.0, timeout: Optional[float] = None) -> AsyncTickStream:
        """The Tick stream on the client's channel (collide.stream.AsyncTickStream):
        frames and batches in order on one call."""
        return AsyncTickStream(self.world, self._client._channel, budget_ms, timeout)


__all__ = ("AsyncClient", "AsyncWorld")
