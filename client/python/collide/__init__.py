"""Python client of the collide collision query service (collide.v1).

    import collide
    with collide.Client("127.0.0.1:50051") as c:
        [r] = c.query_pairs("contact", [(collide.Sphere((0, 0, 0), 1),
                                         collide.Sphere((1.5, 0, 0), 1))])
        print(r.hit, r.distance, r.normal)   # True -0.5 (1.0, 0.0, 0.0)

Worlds (collide.world, collide.stream): client.create_world(...) returns a
World handle (frames, scene queries, shot and move verdicts, the Tick
stream), which re-creates the world if the server loses it. On asyncio:
collide.AsyncClient and AsyncWorld (collide.aio), every call a coroutine.

Verdict codes are the enums collide.ShotCode and collide.MoveCode, error
reasons collide.ErrorReason (collide.codes); collide.__version__ is the
collide release this package belongs to.

Installed with pip (client/python/README.md), the package carries its
protobuf and gRPC stubs (collide.v1.*_pb2). In the source tree the CMake
build generates them into <build>/client/python/gen instead: put that
directory and this one's parent on PYTHONPATH. Runs on Debian's
python3-grpcio and python3-protobuf.
"""

import pkgutil

# The generated stubs live in another directory under the same top-level
# name (collide/v1/..., from the proto package path): let `collide.v1` be
# found there.
__path__ = pkgutil.extend_path(__path__, __name__)

from collide._version import __version__  # noqa: E402
from collide.client import Client  # noqa: E402
from collide.aio import AsyncClient, AsyncWorld  # noqa: E402
from collide.codes import ErrorReason, MoveCode, ProjectileCode, ShotCode, StatusCode  # noqa: E402
from collide.errors import CollideError, FieldViolation  # noqa: E402
from collide.results import (  # noqa: E402
    PackedPairResults,
    PackedRayHits,
    PairResult,
    RayHit,
    ServerInfo,
)
from collide.stream import AsyncTickStream, TickAnswer, TickStream  # noqa: E402
from collide.world import LATEST_TICK, World  # noqa: E402
from collide.world_inputs import (  # noqa: E402
    Body,
    Frame,
    Journal,
    Melee,
    MeleeArc,
    MeleeSweep,
    Move,
    Overlap,
    Part,
    Policy,
    Pose,
    Projectile,
    RayCast,
    ShapeCast,
    Shot,
    StaticMap,
    StaticMesh,
    StaticShape,
)
from collide.world_results import (  # noqa: E402
    Bodies,
    MoveContact,
    MoveExplanation,
    MoveSweep,
    MeleeHit,
    MeleeVerdict,
    MoveVerdict,
    VisibilitySet,
    VisibilitySets,
    OverlapHit,
    OverlapResult,
    PackedWorldRayHits,
    ProjectileContact,
    ProjectileVerdict,
    QueryResults,
    RayResult,
    ShapeCastResult,
    PosedBody,
    PosedPart,
    ShotExplanation,
    ShotVerdict,
    Target,
    TimeUsed,
    WorldInfo,
    WorldRayHit,
    count_codes,
)
from collide.shapes import (  # noqa: E402
    Aabb,
    Capsule,
    ConvexHull,
    Halfspace,
    Obb,
    Point,
    Ray,
    Segment,
    Sphere,
    Triangle,
    PACKED_STRIDES,
)

__all__ = [
    "__version__",
    "ShotCode",
    "MoveCode",
    "ProjectileCode",
    "ErrorReason",
    "StatusCode",
    "Client",
    "AsyncClient",
    "AsyncWorld",
    "CollideError",
    "FieldViolation",
    "PairResult",
    "PackedPairResults",
    "RayHit",
    "PackedRayHits",
    "ServerInfo",
    "Point",
    "Segment",
    "Sphere",
    "Capsule",
    "Aabb",
    "Obb",
    "Triangle",
    "ConvexHull",
    "Halfspace",
    "Ray",
    "PACKED_STRIDES",
    "World",
    "LATEST_TICK",
    "WorldInfo",
    "TickStream",
    "AsyncTickStream",
    "TickAnswer",
    "StaticMesh",
    "StaticShape",
    "StaticMap",
    "Policy",
    "Journal",
    "Pose",
    "Part",
    "Body",
    "Frame",
    "RayCast",
    "ShapeCast",
    "Overlap",
    "Shot",
    "Move",
    "Projectile",
    "Melee",
    "MeleeArc",
    "MeleeSweep",
    "ProjectileContact",
    "ProjectileVerdict",
    "MeleeHit",
    "MeleeVerdict",
    "QueryResults",
    "RayResult",
    "WorldRayHit",
    "ShapeCastResult",
    "OverlapResult",
    "OverlapHit",
    "ShotVerdict",
    "MoveVerdict",
    "ShotExplanation",
    "MoveExplanation",
    "MoveSweep",
    "MoveContact",
    "PosedBody",
    "PosedPart",
    "Bodies",
    "VisibilitySet",
    "VisibilitySets",
    "PackedWorldRayHits",
    "Target",
    "TimeUsed",
    "count_codes",
]
