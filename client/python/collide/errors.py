"""Errors of the collide.v1 RPCs, with the google.rpc.BadRequest that the
server attaches (grpc-status-details-bin) decoded into field violations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

import grpc

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
    UNAVAILABLE, DEADLINE_EXCEEDED...
    """

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: List[FieldViolation]):
        super().__init__(f"{code.name}: {message}" + "".join(
            f"\n  {v.field}: {v.description}" for v in field_violations))
        self.code = code
        self.message = message
        self.field_violations = field_violations

    @property
    def fields(self) -> List[str]:
        """The violated field paths, in the server's order."""
        return [v.field for v in self.field_violations]

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> "CollideError":
        return cls(error.code(), error.details() or "", decode_field_violations(
            error.trailing_metadata() or ()))


def decode_field_violations(trailing_metadata: Tuple) -> List[FieldViolation]:
    """Every google.rpc.BadRequest field violation in the status details."""
    out: List[FieldViolation] = []
    for key, value in trailing_metadata:
        if key != _DETAILS_KEY:
            continue
        status = status_pb2.Status.FromString(value)
        for detail in status.details:
            bad_request = error_details_pb2.BadRequest()
            if detail.Unpack(bad_request):
                out.extend(FieldViolation(v.field, v.description)
                           for v in bad_request.field_violations)
    return out
