"""Errors of the collide.v1 RPCs, with the google.rpc.BadRequest that the
server attaches (grpc-status-details-bin) decoded into field violations, and
its google.rpc.ErrorInfo (reason "WORLD_NOT_FOUND") into reason/domain."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import grpc

from collide.codes import ErrorReason
from google.rpc import error_details_pb2, status_pb2

_DETAILS_KEY = "grpc-status-details-bin"


@dataclass(frozen=True)
class FieldViolation:
    """One bad field: a path such as "pairs[3].b.capsule.radius" or "a.data[41]"."""

    field: str
    description: str


class CollideError(Exception):
    """A failed RPC: its gRPC code, message and every field violation listed.

    code is a grpc.StatusCode: INVALID_ARGUMENT (see field_violations),
    RESOURCE_EXHAUSTED (a limit), UNIMPLEMENTED (halfspace vs halfspace),
    NOT_FOUND (a world: reason "WORLD_NOT_FOUND"), ALREADY_EXISTS,
    FAILED_PRECONDITION (a frame's tick not after the latest), UNAVAILABLE,
    DEADLINE_EXCEEDED...
    """

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: List[FieldViolation], reason: str = "", domain: str = "",
                 metadata: Optional[Dict[str, str]] = None):
        super().__init__(f"{code.name}: {message}" + (f" [{reason}]" if reason else "") + "".join(
            f"\n  {v.field}: {v.description}" for v in field_violations))
        self.code = code
        self.message = message
        self.field_violations = field_violations
        # google.rpc.ErrorInfo: "WORLD_NOT_FOUND" (domain "collide.v1") for
        # a world this replica does not hold; "" when the server sent none.
        self.reason: str = ErrorReason.parse(reason) if reason else reason  # collide.codes
        self.domain = domain
        self.metadata = dict(metadata or {})

    @property
    def fields(self) -> List[str]:
        """The violated field paths, in the server's order."""
        return [v.field for v in self.field_violations]

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> "CollideError":
        return cls.from_status(error.code(), error.details() or "",
                               _status_details(error.trailing_metadata() or ()))

    @classmethod
    def from_status(cls, code: grpc.StatusCode, message: str,
                    status: Optional[status_pb2.Status]) -> "CollideError":
        """From a google.rpc.Status (the details of a failed call, or a Tick
        stream message's own status)."""
        violations, info = _decode(status)
        return cls(code, message, violations, info.reason, info.domain, dict(info.metadata))


def _status_details(trailing_metadata: Tuple) -> Optional[status_pb2.Status]:
    for key, value in trailing_metadata:
        if key == _DETAILS_KEY:
            return status_pb2.Status.FromString(value)
    return None


def _decode(status: Optional[status_pb2.Status]
            ) -> Tuple[List[FieldViolation], error_details_pb2.ErrorInfo]:
    violations: List[FieldViolation] = []
    info = error_details_pb2.ErrorInfo()
    for detail in status.details if status is not None else ():
        bad_request = error_details_pb2.BadRequest()
        if detail.Unpack(bad_request):
            violations.extend(FieldViolation(v.field, v.description)
                              for v in bad_request.field_violations)
        else:
            detail.Unpack(info)
    return violations, info


def decode_field_violations(trailing_metadata: Tuple) -> List[FieldViolation]:
    """Every google.rpc.BadRequest field violation in the status details."""
    return _decode(_status_details(trailing_metadata))[0]
