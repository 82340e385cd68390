"""A consumer of the installed collide-client package: python shot.py HOST:PORT.

Creates a world with a wall, pushes a frame and validates two shots (one in
the open, one through the wall); exits 0 only when the verdicts, their enums
and the server's version are the expected ones."""

import sys

import collide
from collide import ShotCode


def main(target: str) -> int:
    with collide.Client(target, timeout=10) as client:
        info = client.server_info()
        world = client.create_world("python-consumer", [collide.StaticShape(1, collide.Aabb((-2, 4, -2), (2, 5, 2)))],
                                    history_ticks=8)
        ball = [collide.Part(0, collide.Sphere((0, 0, 0), 1))]
        world.push_frame(collide.Frame(1, [collide.Body(1, collide.Pose((0, 0, 0)), parts=ball),
                                           collide.Body(2, collide.Pose((10, 0, 0)), parts=ball),
                                           collide.Body(3, collide.Pose((0, 10, 0)), parts=ball)]))
        verdicts = world.validate_shots([collide.Shot(1, (0, 0, 0), (1, 0, 0), at=1, claimed=(2, 0)),
                                         collide.Shot(1, (0, 0, 0), (0, 1, 0), at=1, claimed=(3, 0))])
        world.delete()
    codes = [v.code for v in verdicts]
    print(f"collide-client {collide.__version__} from {collide.__file__}, server {info.version}: "
          f"{' '.join(str(c) for c in codes)}")
    ok = (codes == [ShotCode.CONFIRMED, ShotCode.BLOCKED] and all(isinstance(c, ShotCode) for c in codes)
          and info.version == collide.__version__)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
