"""The collide.v1 client: one gRPC channel, one method per RPC."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import grpc

from collide.errors import CollideError
from collide.health.v1 import health_pb2, health_pb2_grpc
from collide.results import PackedPairResults, PackedRayHits, PairResult, RayHit, ServerInfo
from collide.shapes import ray_to_proto, shape_to_proto
from collide.v1 import collide_pb2, collide_pb2_grpc

Level = Union[str, int]
Kind = Union[str, int]


def _enum(enum_type, prefix: str, value: Union[str, int]) -> int:
    """An enum value from "contact", "CONTACT", "QUERY_LEVEL_CONTACT" or an int
    (passed through unchecked: the server validates)."""
    if isinstance(value, int):
        return value
    name = value.upper()
    return enum_type.Value(name if name.startswith(prefix) else prefix + name)


def _level(level: Level) -> int:
    return _enum(collide_pb2.QueryLevel, "QUERY_LEVEL_", level)


def _kind(kind: Kind) -> int:
    return _enum(collide_pb2.PackedShapeKind, "PACKED_SHAPE_KIND_", kind)


def _packed(kind: Kind, data: Iterable[float]) -> collide_pb2.PackedShapes:
    packed = collide_pb2.PackedShapes(kind=_kind(kind))
    packed.data.extend(data)
    return packed


class Client:
    """A client of one collide-server (or a load balancer in front of several).

    target: "host:port". timeout: seconds per call (None: no deadline).
    Every method raises CollideError when the call fails. Usable as a
    context manager; close() releases the channel.
    """

    def __init__(self, target: str = "127.0.0.1:50051", *, timeout: Optional[float] = None,
                 channel: Optional[grpc.Channel] = None, options: Sequence[Tuple[str, Any]] = ()):
        self._channel = channel or grpc.insecure_channel(target, options=list(options))
        self._stub = collide_pb2_grpc.CollisionServiceStub(self._channel)
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._timeout = timeout

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _call(self, method, request):
        try:
            return method(request, timeout=self._timeout)
        except grpc.RpcError as e:
            raise CollideError.from_rpc_error(e) from None

    # -- pair queries ---------------------------------------------------------

    def query_pairs(self, level: Level, pairs: Iterable[Tuple[Any, Any]]) -> List[PairResult]:
        """Queries each (a, b) pair at `level` ("intersect", "distance",
        "contact"); result i answers pair i. Shapes: dataclasses, Shape
        messages or dicts (see collide.shapes)."""
        request = collide_pb2.QueryPairsRequest(level=_level(level))
        for a, b in pairs:
            pair = request.pairs.add()
            pair.a.CopyFrom(shape_to_proto(a))
            pair.b.CopyFrom(shape_to_proto(b))
        return self.query_pairs_request(request)

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
        request = collide_pb2.QueryPairsPackedRequest(
            level=_level(level), a=_packed(kind, a_flat),
            b=_packed(kind if kind_b is None else kind_b, b_flat))
        return self.query_pairs_packed_request(request)

    def query_pairs_packed_request(
            self, request: collide_pb2.QueryPairsPackedRequest) -> PackedPairResults:
        return PackedPairResults.from_proto(self._call(self._stub.QueryPairsPacked, request))

    # -- ray casts ----------------------------------------------------------

    def cast_rays(self, casts: Iterable[Tuple[Any, Any]]) -> List[RayHit]:
        """Casts each (ray, shape); hit i answers cast i."""
        request = collide_pb2.CastRaysRequest()
        for ray, shape in casts:
            cast = request.casts.add()
            cast.ray.CopyFrom(ray_to_proto(ray))
            cast.shape.CopyFrom(shape_to_proto(shape))
        return self.cast_rays_request(request)

    def cast_rays_request(self, request: collide_pb2.CastRaysRequest) -> List[RayHit]:
        response = self._call(self._stub.CastRays, request)
        return [RayHit.from_proto(h) for h in response.hits]

    def cast_rays_packed(self, kind: Kind, rays_flat: Iterable[float],
                         shapes_flat: Iterable[float]) -> PackedRayHits:
        """Ray i (7 doubles: origin, direction, max_distance; math.inf for
        unbounded) against shape i of `kind`."""
        request = collide_pb2.CastRaysPackedRequest(shapes=_packed(kind, shapes_flat))
        request.rays.extend(rays_flat)
        return self.cast_rays_packed_request(request)

    def cast_rays_packed_request(self, request: collide_pb2.CastRaysPackedRequest) -> PackedRayHits:
        return PackedRayHits.from_proto(self._call(self._stub.CastRaysPacked, request))

    # -- service --------------------------------------------------------------

    def server_info(self) -> ServerInfo:
        return ServerInfo.from_proto(
            self._call(self._stub.GetServerInfo, collide_pb2.GetServerInfoRequest()))

    def health(self, service: str = "") -> str:
        """grpc.health.v1 status name: "SERVING", "NOT_SERVING", ..."""
        response = self._call(self._health.Check, health_pb2.HealthCheckRequest(service=service))
        return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)


