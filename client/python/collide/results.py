"""Results of the collide.v1 RPCs as plain dataclasses (meanings in
collide.proto: distances in length units, points and normals world space,
normal from A towards B)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Tuple

from collide.v1 import collide_pb2

Vec3 = Tuple[float, float, float]


def _vec(v) -> Vec3:
    return (v.x, v.y, v.z)


def _status(value: int) -> str:
    return collide_pb2.ResultStatus.Name(value)


@dataclass(frozen=True)
class PairResult:
    """One pair query's answer. Fields a level does not compute are zero."""

    hit: bool
    distance: float
    point_a: Vec3
    point_b: Vec3
    normal: Vec3
    status: str = "RESULT_STATUS_OK"

    @classmethod
    def from_proto(cls, r: collide_pb2.PairResult) -> "PairResult":
        return cls(r.hit, r.distance, _vec(r.point_a), _vec(r.point_b), _vec(r.normal),
                   _status(r.status))


@dataclass(frozen=True)
class RayHit:
    """First contact of a ray with a shape; on a miss every field but status is zero."""

    hit: bool
    distance: float
    point: Vec3
    normal: Vec3
    status: str = "RESULT_STATUS_OK"

    @classmethod
    def from_proto(cls, r: collide_pb2.RayHit) -> "RayHit":
        return cls(r.hit, r.distance, _vec(r.point), _vec(r.normal), _status(r.status))


@dataclass(frozen=True)
class PackedPairResults:
    """Parallel arrays: pair i at [i] (hit, distance) or [3i:3i+3] (vectors).
    INTERSECT fills only `hit`."""

    hit: List[bool] = field(default_factory=list)
    distance: List[float] = field(default_factory=list)
    point_a: List[float] = field(default_factory=list)
    point_b: List[float] = field(default_factory=list)
    normal: List[float] = field(default_factory=list)
    not_converged: List[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hit)

    @classmethod
    def from_proto(cls, r: collide_pb2.QueryPairsPackedResponse) -> "PackedPairResults":
        return cls(list(r.hit), list(r.distance), list(r.point_a), list(r.point_b),
                   list(r.normal), list(r.not_converged))


@dataclass(frozen=True)
class PackedRayHits:
    """Parallel arrays as in PackedPairResults."""

    hit: List[bool] = field(default_factory=list)
    distance: List[float] = field(default_factory=list)
    point: List[float] = field(default_factory=list)
    normal: List[float] = field(default_factory=list)
    not_converged: List[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.hit)

    @classmethod
    def from_proto(cls, r: collide_pb2.CastRaysPackedResponse) -> "PackedRayHits":
        return cls(list(r.hit), list(r.distance), list(r.point), list(r.normal),
                   list(r.not_converged))


@dataclass(frozen=True)
class ServerInfo:
    version: str
    replica: str
    max_items_per_request: int
    max_receive_message_bytes: int
    worker_threads: int
    requests_served: int
    items_served: int

    @classmethod
    def from_proto(cls, r: collide_pb2.ServerInfo) -> "ServerInfo":
        return cls(r.version, r.replica, r.max_items_per_request, r.max_receive_message_bytes,
                   r.worker_threads, r.requests_served, r.items_served)
