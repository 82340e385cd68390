"""Verdict and error codes as enums.

Shot and move verdicts carry their code as the proto enum's name without its
prefix (world.proto: SHOT_CODE_CONFIRMED -> "CONFIRMED"); ShotCode and
MoveCode name those values. They are str enums: a member equals its string
(ShotCode.CONFIRMED == "CONFIRMED"), prints as it (str() and format() give
"CONFIRMED"), and hashes like it, so count_codes() keys and code strings mix.

Errors: CollideError.code is a grpc.StatusCode (also exported here as
StatusCode); CollideError.reason is an ErrorReason when the server sent a
reason this client knows (google.rpc.ErrorInfo), else the string as sent.
"""

import enum
from typing import Dict, Type, TypeVar, Union

import grpc

#: The gRPC status of a failed call (CollideError.code): grpc.StatusCode.
StatusCode = grpc.StatusCode

_E = TypeVar("_E", bound="_Code")


class _Code(str, enum.Enum):
    """A code that is also its string (Python 3.11's StrEnum, on 3.9 too)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    @classmethod
    def parse(cls: Type[_E], name: str) -> Union[_E, str]:
        """The member named `name`, or `name` itself when this client does not
        know it (a server newer than the client): never raises."""
        try:
            return cls(name)
        except ValueError:
            return name


class ShotCode(_Code):
    """ShotVerdict.code (world.proto ShotCode)."""

    #: The claimed part is the first thing the ray meets (within tolerance).
    CONFIRMED = "CONFIRMED"
    #: The claimed body is hit first, but another part of it.
    HIT_OTHER_PART = "HIT_OTHER_PART"
    #: Another body is in the way first.
    HIT_OTHER_BODY = "HIT_OTHER_BODY"
    #: Static geometry is in the way first (first_hit says which and where).
    BLOCKED = "BLOCKED"
    #: The ray meets nothing claimed (or nothing at all) within range.
    MISSED = "MISSED"
    #: `at` is more than the policy's max_rewind_ticks behind the latest frame.
    REWIND_TOO_OLD = "REWIND_TOO_OLD"
    #: `at` is after the latest frame.
    IN_THE_FUTURE = "IN_THE_FUTURE"
    #: The origin is farther than the policy's max_origin_offset from the shooter.
    ORIGIN_IMPLAUSIBLE = "ORIGIN_IMPLAUSIBLE"
    #: The shooter does not exist at the time used.
    UNKNOWN_SHOOTER = "UNKNOWN_SHOOTER"
    #: The claimed body (or part) does not exist at the time used.
    UNKNOWN_TARGET = "UNKNOWN_TARGET"
    #: The shot's fields are invalid (zero or non-finite direction, negative
    #: tolerance, a claim on the shooter's own body...): `violations` names them.
    INVALID = "INVALID"
    #: The view time `at` is further from the expected view time than the
    #: shot's max_skew_ticks allow (expected_at set).
    VIEW_TIME_IMPLAUSIBLE = "VIEW_TIME_IMPLAUSIBLE"


class MoveCode(_Code):
    """MoveVerdict.code (world.proto MoveCode)."""

    #: The movement shape sweeps from `from` to `to` touching nothing.
    OK = "OK"
    #: |to - from| / elapsed exceeds the speed limit.
    TOO_FAST = "TOO_FAST"
    #: The sweep hits static geometry: allowed_position is where the body may be.
    BLOCKED = "BLOCKED"
    #: The movement shape already overlaps static geometry at `from`.
    START_PENETRATING = "START_PENETRATING"
    #: The body does not exist in the latest frame.
    UNKNOWN_BODY = "UNKNOWN_BODY"
    #: The move's fields are invalid (non-finite positions, elapsed <= 0,
    #: negative max_speed): `violations` names them.
    INVALID = "INVALID"
    #: With a movement model: faster in the horizontal plane than the
    #: stance's ground speed (or the air speed, airborne).
    TOO_FAST_HORIZONTAL = "TOO_FAST_HORIZONTAL"
    #: With a movement model: faster up than a jump or faster down than a
    #: fall allows.
    TOO_FAST_VERTICAL = "TOO_FAST_VERTICAL"
    #: With a movement model: only a step higher than step_height would pass.
    STEP_TOO_HIGH = "STEP_TOO_HIGH"
    #: With a movement model: airborne above every jump/fall arc (hovering).
    FLYING = "FLYING"
    #: With a movement model: climbing a surface too steep to walk.
    TOO_STEEP = "TOO_STEEP"
    #: With a move budget: the body's moves in the window go farther than
    #: its max_speed allows.
    DISTANCE_BUDGET = "DISTANCE_BUDGET"
    #: With a move budget: they claim more elapsed time than the server's
    #: ticks cover.
    TIME_BUDGET = "TIME_BUDGET"


class ProjectileCode(_Code):
    """ProjectileVerdict.code (world.proto ProjectileCode, docs/projectiles.md)."""

    #: The claimed part is the first thing hit (no claim: a body part is).
    CONFIRMED = "CONFIRMED"
    #: Another part of the claimed body is hit first.
    HIT_OTHER_PART = "HIT_OTHER_PART"
    #: Another body is hit first.
    HIT_OTHER_BODY = "HIT_OTHER_BODY"
    #: A static stopped it, no bounce left (`hit` says which and where).
    BLOCKED = "BLOCKED"
    #: The time limit came with nothing hit (`position`: where it was then).
    MISSED = "MISSED"
    #: Still flying at the latest frame: judged up to it; ask again next tick.
    IN_FLIGHT = "IN_FLIGHT"
    #: The launch is more than the policy's max_rewind_ticks behind the latest frame.
    REWIND_TOO_OLD = "REWIND_TOO_OLD"
    #: The launch is after the latest frame.
    IN_THE_FUTURE = "IN_THE_FUTURE"
    #: The shooter does not exist at the launch time used.
    UNKNOWN_SHOOTER = "UNKNOWN_SHOOTER"
    #: The claimed body (or part) does not exist at the launch time used.
    UNKNOWN_TARGET = "UNKNOWN_TARGET"
    #: Bad fields: `violations` names them.
    INVALID = "INVALID"
    #: The origin is farther from the shooter's eye at command_at than
    #: origin_allowance (as a shot's): no flight is judged.
    ORIGIN_IMPLAUSIBLE = "ORIGIN_IMPLAUSIBLE"


class ErrorReason(_Code):
    """CollideError.reason: google.rpc.ErrorInfo's reason (domain "collide.v1")."""

    #: NOT_FOUND: this replica does not hold the world (restarted, evicted,
    #: or a proxy moved it); World handles re-create it.
    WORLD_NOT_FOUND = "WORLD_NOT_FOUND"


# The verdict enums by the proto enum prefix they stand for.
_BY_PREFIX: Dict[str, Type[_Code]] = {"SHOT_CODE_": ShotCode, "MOVE_CODE_": MoveCode,
                                      "PROJECTILE_CODE_": ProjectileCode}


def verdict_code(prefix: str, name: str) -> str:
    """The enum member for a verdict code `name` (without `prefix`), or the
    string itself for a prefix or name this module does not know."""
    codes = _BY_PREFIX.get(prefix)
    return codes.parse(name) if codes else name


__all__ = ("StatusCode", "ShotCode", "MoveCode", "ProjectileCode", "ErrorReason", "verdict_code")
