"""Queries a running collide-server: one contact pair, a packed batch and a ray.

    PYTHONPATH=build/client/python/gen:client/python \\
        /usr/bin/python3 client/python/examples/quickstart.py [host:port]

Prints the answers; exits 1 with the server's message (and every bad field)
when a call fails.
"""

import sys

import collide


def main() -> int:
    target = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
    with collide.Client(target, timeout=5) as c:
        try:
            # Unit spheres 1.5 apart overlap by 0.5: distance -0.5, normal +x (A to B).
            [r] = c.query_pairs("contact", [(collide.Sphere((0, 0, 0), 1),
                                             collide.Sphere((1.5, 0, 0), 1))])
            print(f"contact: hit={r.hit} distance={r.distance} normal={r.normal}")
            # Packed encoding: flat runs of doubles, here two sphere pairs (x, y, z, radius).
            packed = c.query_pairs_packed("intersect", "sphere", [0, 0, 0, 1, 5, 0, 0, 1],
                                          [0.5, 0, 0, 0.1, 9, 0, 0, 0.1])
            print(f"packed: hit={list(packed.hit)}")
            # A ray from x = -5 along +x enters the unit cube at x = -1.
            [h] = c.cast_rays([(collide.Ray((-5, 0, 0), (1, 0, 0)),
                                collide.Aabb((-1, -1, -1), (1, 1, 1)))])
            print(f"ray: hit={h.hit} distance={h.distance} point={h.point}")
        except collide.CollideError as e:
            print(e, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
