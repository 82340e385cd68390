"""The collide.v1 client: one gRPC channel, one method per RPC."""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import grpc

from collide.errors import CollideError
from collide.health.v1 import health_pb2, health_pb2_grpc
from collide.results import PackedPairResults, PackedRayHits, PairResult, RayHit, ServerInfo
from collide.shapes import ray_to_proto, shape_to_proto
from collide.world_inputs import enum_value
from collide.v1 import collide_pb2, collide_pb2_grpc, world_pb2, world_pb2_grpc
from collide.world import HEADER, World
from collide.world_inputs import journal_to_proto, policy_to_proto, static_to_proto
from collide.world_results import WorldInfo

Level = Union[str, int]
Kind = Union[str, int]


def _service_config(max_attempts: int) -> str:
    """Retries of the calls that change nothing, on the codes that mean "the
    server did not run the call" (a connection refused or reset, a server
    draining: UNAVAILABLE, and the CANCELLED a shutting-down gRPC server
    answers), backoff 10 ms doubling to 1 s: the C++ client's policy
    (client/src/client.cc). CreateWorld, DeleteWorld and PushFrame are not
    retried (a retry could answer ALREADY_EXISTS or FAILED_PRECONDITION for
    its own first attempt), nor the Tick stream."""
    read_only = ["GetWorld", "ListWorlds", "QueryWorld", "CastWorldRaysPacked", "ValidateShots",
                 "ValidateShotsPacked", "ValidateMoves", "GetBodies", "GetVisibility"]
    return json.dumps({"methodConfig": [{
        "name": [{"service": "collide.v1.CollisionService"}] +
                [{"service": "collide.v1.WorldService", "method": m} for m in read_only],
        "retryPolicy": {"maxAttempts": max_attempts, "initialBackoff": "0.01s", "maxBackoff": "1s",
                        "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"]}}]})


def _level(level: Level) -> "collide_pb2.QueryLevel":
    return enum_value(collide_pb2.QueryLevel, "QUERY_LEVEL_", level)


def _kind(kind: Kind) -> "collide_pb2.PackedShapeKind":
    return enum_value(collide_pb2.PackedShapeKind, "PACKED_SHAPE_KIND_", kind)


def _packed(kind: Kind, data: Iterable[float]) -> collide_pb2.PackedShapes:
    packed = collide_pb2.PackedShapes(kind=_kind(kind))
    packed.data.extend(data)
    return packed


# The requests of the calls, shared by Client and collide.aio.AsyncClient.

def _pairs_request(level: Level, pairs: Iterable[Tuple[Any, Any]]) -> collide_pb2.QueryPairsRequest:
    request = collide_pb2.QueryPairsRequest(level=_level(level))
    for a, b in pairs:
        pair = request.pairs.add()
        pair.a.CopyFrom(shape_to_proto(a))
        pair.b.CopyFrom(shape_to_proto(b))
    return request


def _pairs_packed_request(level: Level, kind: Kind, a_flat: Iterable[float], b_flat: Iterable[float],
                          kind_b: Optional[Kind]) -> collide_pb2.QueryPairsPackedRequest:
    return collide_pb2.QueryPairsPackedRequest(level=_level(level), a=_packed(kind, a_flat),
                                               b=_packed(kind if kind_b is None else kind_b, b_flat))


def _casts_request(casts: Iterable[Tuple[Any, Any]]) -> collide_pb2.CastRaysRequest:
    request = collide_pb2.CastRaysRequest()
    for ray, shape in casts:
        cast = request.casts.add()
        cast.ray.CopyFrom(ray_to_proto(ray))
        cast.shape.CopyFrom(shape_to_proto(shape))
    return request


def _rays_packed_request(kind: Kind, rays_flat: Iterable[float],
                         shapes_flat: Iterable[float]) -> collide_pb2.CastRaysPackedRequest:
    request = collide_pb2.CastRaysPackedRequest(shapes=_packed(kind, shapes_flat))
    request.rays.extend(rays_flat)
    return request


def _create_world_request(world_id: str, statics: Iterable[Any], history_ticks: int,
                          policy: Any, journal: Any = None) -> world_pb2.CreateWorldRequest:
    request = world_pb2.CreateWorldRequest(world_id=world_id, history_ticks=history_ticks,
                                           statics=[static_to_proto(e) for e in statics])
    if policy is not None:
        request.policy.CopyFrom(policy_to_proto(policy))
    if journal is not None:
        request.journal.CopyFrom(journal_to_proto(journal))
    return request


def _read(path: Optional[str]) -> Optional[bytes]:
    if path is None:
        return None
    with open(path, "rb") as f:
        return f.read()


def _tls_credentials(tls: bool, ca_file: Optional[str], cert_file: Optional[str],
                     key_file: Optional[str]) -> Optional[grpc.ChannelCredentials]:
    """TLS channel credentials when any TLS option is given, else None
    (plaintext). Without a CA file: the system's root certificates."""
    if not (tls or ca_file or cert_file or key_file):
        return None
    if (cert_file is None) != (key_file is None):
        raise ValueError("tls_cert_file and tls_key_file go together (mutual TLS)")
    return grpc.ssl_channel_credentials(root_certificates=_read(ca_file), private_key=_read(key_file),
                                        certificate_chain=_read(cert_file))


class Client:
    """A client of one collide-server (or a load balancer in front of several).

    target: "host:port". timeout: seconds per call (None: no deadline).
    max_attempts: tries of a call that changes nothing when the server did
    not run it (UNAVAILABLE, CANCELLED), with backoff; 1: no retries.
    Every method raises CollideError when the call fails. Usable as a
    context manager; close() releases the channel.

    Security (the server's --tls_* and --auth_token_file flags,
    docs/operations.md): tls=True dials TLS with the system's root
    certificates, tls_ca_file (PEM) with those instead (and implies TLS);
    tls_cert_file and tls_key_file (PEM) present a client certificate
    (mutual TLS); tls_server_name is the name the server's certificate must
    carry when it differs from the target's host (dialling an IP). token
    sends "authorization: Bearer <token>" with every call. Both the C++
    client's ClientOptions and the CLI's flags name them the same.
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, timeout: Optional[float] = None,
                 channel: Optional[grpc.Channel] = None, options: Sequence[Tuple[str, Any]] = (),
                 max_attempts: int = 5, tls: bool = False, tls_ca_file: Optional[str] = None,
                 tls_cert_file: Optional[str] = None, tls_key_file: Optional[str] = None,
                 tls_server_name: Optional[str] = None, token: Optional[str] = None):
        options = tuple(options)
        if max_attempts > 1 and not any(name == "grpc.service_config" for name, _ in options):
            options += (("grpc.service_config", _service_config(max_attempts)),)
        if tls_server_name:
            options += (("grpc.ssl_target_name_override", tls_server_name),)
        #: The channel credentials (None: plaintext), for the asyncio channels.
        self.credentials = _tls_credentials(tls, tls_ca_file, tls_cert_file, tls_key_file)
        #: Metadata every call carries: the bearer token, if any.
        self.auth_metadata: Tuple[Tuple[str, str], ...] = (("authorization", f"Bearer {token}"),) if token else ()
        if channel is not None:
            self._channel = channel
        elif self.credentials is not None:
            self._channel = grpc.secure_channel(target, self.credentials, options=list(options))
        else:
            self._channel = grpc.insecure_channel(target, options=list(options))
        # For the asyncio Tick stream's own channel (World.stream_async).
        self.target: Optional[str] = None if channel is not None else target
        self.options = tuple(options)
        self._stub = collide_pb2_grpc.CollisionServiceStub(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._worlds = world_pb2_grpc.WorldServiceStub(self._channel)
        self._timeout = timeout

    def aio_channel(self) -> grpc.aio.Channel:
        """A grpc.aio channel to the same target with the same options and
        credentials (AsyncClient's, and World.stream_async's own)."""
        if self.target is None:
            raise ValueError("the client was made from a channel: pass an aio channel")
        if self.credentials is not None:
            return grpc.aio.secure_channel(self.target, self.credentials, options=list(self.options))
        return grpc.aio.insecure_channel(self.target, options=list(self.options))

    def wait_ready(self, timeout: float) -> None:
        """Blocks until the server answers a health check (CollideError
        UNAVAILABLE after `timeout` seconds): e.g. after a server restart,
        which the channel may notice only on its next call."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                grpc.channel_ready_future(self._channel).result(timeout=max(0.0, deadline - time.monotonic()))
                self.health()
                return
            except (CollideError, grpc.FutureTimeoutError) as e:
                if time.monotonic() >= deadline or (isinstance(e, CollideError) and
                                                    e.code != grpc.StatusCode.UNAVAILABLE):
                    raise CollideError(grpc.StatusCode.UNAVAILABLE, f"the server is not ready: {e}", []) from None
                time.sleep(0.02)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method, request, metadata=None):
        try:
            return method(request, timeout=self._timeout, metadata=self.auth_metadata + tuple(metadata or ()))
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None

    # -- pair queries ---------------------------------------------------------

    def query_pairs(self, level: Level, pairs: Iterable[Tuple[Any, Any]]) -> List[PairResult]:
        """Queries each (a, b) pair at `level` ("intersect", "distance",
        "contact"); result i answers pair i. Shapes: dataclasses, Shape
        messages or dicts (see collide.shapes)."""
        return self.query_pairs_request(_pairs_request(level, pairs))

    def query_pairs_request(self, request: collide_pb2.QueryPairsRequest) -> List[PairResult]:
        """QueryPairs with a request built by hand."""
        response = self._call(self._stub.QueryPairs, request)
        return [PairResult.from_proto(r) for r in response.results]

    def query_pairs_packed(self, level: Level, kind: Kind, a_flat: Iterable[float],
                           b_flat: Iterable[float], kind_b: Optional[Kind] = None) -> PackedPairResults:
        """Pair i is (a[i], b[i]) with shapes as flat runs of doubles
        (PACKED_STRIDES, e.g. sphere: x, y, z, radius). `kind` is A's kind
        ("sphere", ...), and B's too unless kind_b says otherwise. Any
        iterable of numbers works (lists, array.array, numpy arrays)."""
        return self.query_pairs_packed_request(_pairs_packed_request(level, kind, a_flat, b_flat, kind_b))

    def query_pairs_packed_request(
            self, request: collide_pb2.QueryPairsPackedRequest) -> PackedPairResults:
        return PackedPairResults.from_proto(self._call(self._stub.QueryPairsPacked, request))

    # -- ray casts ----------------------------------------------------------

    def cast_rays(self, casts: Iterable[Tuple[Any, Any]]) -> List[RayHit]:
        """Casts each (ray, shape); hit i answers cast i."""
        return self.cast_rays_request(_casts_request(casts))

    def cast_rays_request(self, request: collide_pb2.CastRaysRequest) -> List[RayHit]:
        response = self._call(self._stub.CastRays, request)
        return [RayHit.from_proto(h) for h in response.hits]

    def cast_rays_packed(self, kind: Kind, rays_flat: Iterable[float],
                         shapes_flat: Iterable[float]) -> PackedRayHits:
        """Ray i (7 doubles: origin, direction, max_distance; math.inf for
        unbounded) against shape i of `kind`."""
        return self.cast_rays_packed_request(_rays_packed_request(kind, rays_flat, shapes_flat))

    def cast_rays_packed_request(self, request: collide_pb2.CastRaysPackedRequest) -> PackedRayHits:
        return PackedRayHits.from_proto(self._call(self._stub.CastRaysPacked, request))

    # -- worlds -----------------------------------------------------------------

    def create_world(self, world_id: str, statics: Iterable[Any] = (), *, history_ticks: int = 0,
                     policy: Any = None, journal: Any = None, recreate: bool = True,
                     on_history_lost: Optional[Callable[[World], None]] = None) -> World:
        """Creates a world: static elements (StaticMesh, StaticShape, StaticMap
        naming a file in the server's --maps_dir, or StaticElement messages or
        dicts), history_ticks (0: the server's default), a Policy and a
        Journal (the audit trail, a match recording). The handle re-creates
        the world if the server loses it (collide.world)."""
        return self.create_world_request(
            _create_world_request(world_id, statics, history_ticks, policy, journal),
            recreate=recreate, on_history_lost=on_history_lost)

    def create_world_request(self, request: world_pb2.CreateWorldRequest, *, recreate: bool = True,
                             on_history_lost: Optional[Callable[[World], None]] = None) -> World:
        """CreateWorld with a request built by hand."""
        info = self._call(self._worlds.CreateWorld, request, ((HEADER, request.world_id),))
        world = World(self, request.world_id, request, recreate=recreate, on_history_lost=on_history_lost)
        world.created = WorldInfo.from_proto(info)
        return world

    def world(self, world_id: str) -> World:
        """A handle on a world created elsewhere (it cannot re-create it)."""
        return World(self, world_id)

    def get_world(self, world_id: str) -> WorldInfo:
        return self.world(world_id).info()

    def delete_world(self, world_id: str) -> None:
        self.world(world_id).delete()

    def watch_audit(self, world_id: str) -> Iterator[world_pb2.AuditRecord]:
        """The world's audit trail as it is written (WatchAudit: the world
        needs journal.audit), one AuditRecord per verdict, until the world is
        deleted (the iteration then ends) or the iterator is closed. A reader
        slower than the verdicts loses records: dropped_before counts them."""
        metadata = self.auth_metadata + (("collide-world", world_id),)
        stream = self._worlds.WatchAudit(world_pb2.WatchAuditRequest(world_id=world_id), metadata=metadata)
        try:
            yield from stream
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None
        finally:
            stream.cancel()

    def list_worlds(self) -> List[WorldInfo]:
        """The caller's worlds on this replica (behind a proxy: one replica's)."""
        response = self._call(self._worlds.ListWorlds, world_pb2.ListWorldsRequest())
        return [WorldInfo.from_proto(w) for w in response.worlds]

    # -- service --------------------------------------------------------------

    def server_info(self) -> ServerInfo:
        return ServerInfo.from_proto(
            self._call(self._stub.GetServerInfo, collide_pb2.GetServerInfoRequest()))

    def health(self, service: str = "") -> str:
        """grpc.health.v1 status name: "SERVING", "NOT_SERVING", ..."""
        response = self._call(self._health.Check, health_pb2.HealthCheckRequest(service=service))
        return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)


