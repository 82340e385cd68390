"""A few seconds of a deathmatch on a map the server loads, judged by a
collide world through its Tick stream: players run between walls (move
validation, with slide), shoot each other with 100 ms of lag (shot
validation at the time the shooter saw, after a line-of-sight check by
rays at that time), and the verdicts are counted.

Usage: arena.py [host:port] [--seconds=3] [--map=pak6-patch088.pk3:aggressor]
The server needs the map in its --maps_dir, e.g.
  collide-server --maps_dir=/usr/share/games/openarena/baseoa   (Debian's openarena-088-data)
Run with Debian's /usr/bin/python3 and PYTHONPATH=build/client/python/gen:client/python.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from collections import Counter
from typing import List

import collide

TICK_RATE = 20  # ticks per second
RUN_SPEED = 300.0  # Quake units per second
LAG_TICKS = 2  # how far behind the shooters see
# Player spawn points of OpenArena's aggressor (its info_player_deathmatch entities).
SPAWNS = [(-576, 192, 152), (-640, 320, -40), (608, 352, 152), (64, 64, 328), (200, -24, 152),
          (-256, -336, -40), (-552, 320, -40), (160, 80, 328)]
# Hitboxes about a Quake player's origin (its box spans z -24 .. 32).
HITBOXES = [collide.Part(0, collide.Sphere((0, 0, 22), 6)),  # head
            collide.Part(1, collide.Capsule((0, 0, -2), (0, 0, 12), 12)),  # torso
            collide.Part(2, collide.Capsule((0, 0, -20), (0, 0, -6), 8))]  # legs
MOVEMENT_SHAPE = collide.Capsule((0, 0, -6), (0, 0, 14), 14)
EYE = 22.0


class Player:
    def __init__(self, body_id: int, position, heading: float):
        self.id = body_id
        self.position = tuple(float(c) for c in position)
        self.heading = heading
        self.past: List[tuple] = []  # positions, latest first

    def at(self, back: int) -> tuple:
        return self.past[min(back, len(self.past) - 1)]


def play(target: str, seconds: float, map_spec: str, out=print) -> Counter:
    """Plays the match; prints and returns the verdict counts ("shot CONFIRMED", "move OK", ...)."""
    file, _, map_name = map_spec.partition(":")
    rng = random.Random(17)  # a repeatable match
    counts: Counter = Counter()
    with collide.Client(target, timeout=30) as client:
        world = client.create_world(
            f"arena-py-{os.getpid()}", [collide.StaticMap(1, file, map_name)], history_ticks=32,
            policy=collide.Policy(max_rewind_ticks=8, max_origin_offset=32, default_max_speed=RUN_SPEED * 1.1),
            on_history_lost=lambda w: out(f"world lost by the server and re-created ({w.history_lost})"))
        out(f"world {world.world_id}: {world.info().triangles} triangles from {map_spec}")
        players = [Player(i + 1, p, rng.uniform(0, 2 * math.pi)) for i, p in enumerate(SPAWNS)]
        ticks = max(1, round(seconds * TICK_RATE))
        started = time.monotonic()
        try:
            # Two messages a tick on one stream, lock-step: this tick's frame
            # with the shooters' line-of-sight rays, then the shots and moves.
            with world.stream() as stream:
                for tick in range(1, ticks + 1):
                    for p in players:
                        p.past.insert(0, p.position)
                    shooters = [rng.choice(players) for _ in range(2)]
                    seen = max(1, tick - LAG_TICKS)
                    sight = [sight_rays(s, players, tick - seen, seen) for s in shooters]
                    looked = stream.tick(frame(tick, players), ray_casts=[r for rays in sight for r in rays])
                    query = looked.raise_for_error().query
                    assert query is not None
                    results = query.ray_casts
                    shots = []
                    for i, shooter in enumerate(shooters):
                        seen_rays = results[i * (len(players) - 1):(i + 1) * (len(players) - 1)]
                        shots.append(aim(rng, shooter, players, seen_rays, tick - seen, seen))
                    moves = [run(rng, p) for p in players]
                    judged = stream.tick(shots=shots, moves=moves).raise_for_error()
                    counts.update("shot " + v.code for v in judged.shots or [])
                    for p, move, verdict in zip(players, moves, judged.moves or []):
                        counts["move " + verdict.code] += 1
                        if verdict.code == "OK":
                            p.position = tuple(move.to)
                        elif verdict.code == "BLOCKED":  # slide along the wall and turn
                            p.position = verdict.slid_position
                            p.heading += math.pi / 2 + rng.random() * math.pi
            info = world.info()
            out(f"{ticks} ticks ({ticks / TICK_RATE:g} s of play) in {time.monotonic() - started:.2f} s; "
                f"history ticks {info.oldest_tick}..{info.latest_tick}, {info.bodies} players")
        finally:
            world.delete()
    for kind in ("shot", "move"):
        out(f"{kind}s: " + ", ".join(f"{code.split()[1]}: {n}" for code, n in sorted(counts.items())
                                      if code.startswith(kind)))
    return counts


def frame(tick: int, players: List[Player]) -> collide.Frame:
    """This tick's poses (the positions the last move verdicts allowed); the
    hitboxes and movement shape with the first."""
    return collide.Frame(tick, [collide.Body(
        p.id, collide.Pose(p.position, (math.cos(p.heading / 2), 0, 0, math.sin(p.heading / 2))),
        parts=HITBOXES if tick == 1 else (), movement_shape=MOVEMENT_SHAPE if tick == 1 else None)
        for p in players])


def eye_of(shooter: Player) -> tuple:
    """The shooter's present eye: a client fires from where it is now, at the
    others as it shows them (in the past)."""
    x, y, z = shooter.at(0)
    return (x, y, z + EYE)


def sight_rays(shooter: Player, players: List[Player], back: int, seen: int) -> List[collide.RayCast]:
    """One ray from the shooter's eye to each other player's chest, as the
    shooter's client showed them `back` ticks ago (at tick `seen`)."""
    eye = eye_of(shooter)
    rays = []
    for p in players:
        if p is not shooter:
            x, y, z = p.at(back)
            rays.append(collide.RayCast(collide.Ray(eye, (x - eye[0], y - eye[1], z + 5 - eye[2])), at=seen,
                                        ignore=[shooter.id]))
    return rays


def aim(rng: random.Random, shooter: Player, players: List[Player], sight: List[collide.RayResult], back: int,
        seen: int) -> collide.Shot:
    """The shooter fires at a player in sight if there is one, the head a
    third of the time, with a little spread."""
    others = [p for p in players if p is not shooter]
    visible = [p for p, r in zip(others, sight) if r.hits and r.hits[0].target is not None
               and (r.hits[0].target.kind, r.hits[0].target.id) == ("body", p.id)]
    target = rng.choice(visible or others)
    head = rng.random() < 1 / 3
    eye = eye_of(shooter)
    x, y, z = target.at(back)
    aim_at = (x, y, z + (22 if head else 5))
    direction = tuple(a - e + rng.uniform(-4, 4) for a, e in zip(aim_at, eye))
    return collide.Shot(shooter.id, eye, direction, at=seen, claimed=(target.id, 0 if head else 1), tolerance=1)


def run(rng: random.Random, p: Player) -> collide.Move:
    """Every player runs on; one in 50 with a speed hack."""
    if rng.random() < 0.05:
        p.heading += rng.uniform(-1, 1)
    step = RUN_SPEED / TICK_RATE * (3 if rng.random() < 0.02 else 1)
    to = (p.position[0] + step * math.cos(p.heading), p.position[1] + step * math.sin(p.heading), p.position[2])
    return collide.Move(p.id, to, 1 / TICK_RATE, from_=p.position, slide=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", nargs="?", default="127.0.0.1:50051")
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--map", default="pak6-patch088.pk3:aggressor")
    args = parser.parse_args()
    play(args.target, args.seconds, args.map)


if __name__ == "__main__":
    main()
