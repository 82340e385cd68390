"""Runs every world script of tests/conformance/world_golden.json
($COLLIDE_WORLD_GOLDEN; format in tests/conformance/world_cases.h) through
the Python client's world API against a live collide-server
($COLLIDE_SERVER), restarting the server where a script says so."""

import os
import unittest

import collide
from test_conformance import GoldenServerTest, _nums, _pair, mismatch


def _vec(t):
    return {"x": t[0], "y": t[1], "z": t[2]}


def _target(t):
    if t is None:
        return None
    if t.kind == "static":
        return {"static_element": {"element_id": t.id, "triangle": t.index}}
    return {"body": {"body_id": t.id, "part_id": t.index}}


def _time(t):
    return {"at": {"tick": t.tick, "fraction": t.fraction}, "clamped": t.clamped}


def _hit(h):
    if h is None:
        return None
    return {"distance": h.distance, "point": _vec(h.point), "normal": _vec(h.normal), "target": _target(h.target)}


def _ray(r):
    return {"hits": [_hit(h) for h in r.hits], "total_hits": r.total_hits, "time": _time(r.time)}


def _cast(r):
    return {"hit": r.hit, "t": r.t, "point": _vec(r.point), "normal": _vec(r.normal), "depth": r.depth,
            "target": _target(r.target), "time": _time(r.time)}


def _overlap(r):
    return {"overlaps": [{"target": _target(o.target), "contact": _pair(o.contact) if o.contact else None}
                         for o in r.overlaps], "total": r.total, "time": _time(r.time)}


def _shot(v):
    return {"code": "SHOT_CODE_" + v.code, "first_hit": _hit(v.first_hit), "time": _time(v.time),
            "claimed_miss_distance": v.claimed_miss_distance, "origin_offset": v.origin_offset}


def _move(v):
    return {"code": "MOVE_CODE_" + v.code, "allowed_position": _vec(v.allowed_position), "t": v.t,
            "normal": _vec(v.normal), "target": _target(v.target), "depth": v.depth, "speed": v.speed,
            "slid_position": _vec(v.slid_position)}


def _info(i):
    return {"world_id": i.world_id, "static_elements": i.static_elements, "triangles": i.triangles,
            "degenerate_triangles": i.degenerate_triangles, "bodies": i.bodies, "latest_tick": i.latest_tick,
            "oldest_tick": i.oldest_tick, "frames_kept": i.frames_kept, "history_ticks": i.history_ticks,
            "policy": i.policy}


class Runner:
    """One client and its world handles, by world id, across a script."""

    def __init__(self, client):
        self.client = client
        self.worlds = {}

    def world(self, world_id):
        return self.worlds.get(world_id) or self.client.world(world_id)

    def history_lost(self):
        return sum(w.history_lost for w in self.worlds.values())

    def run(self, rpc, req):
        """The step's request through the idiomatic API; the answer as golden JSON."""
        w = self.world(req.get("world_id", ""))
        if rpc == "CreateWorld":
            created = self.client.create_world(req["world_id"], req.get("statics", []),
                                               history_ticks=req.get("history_ticks", 0),
                                               policy=req.get("policy"))
            self.worlds[req["world_id"]] = created
            return _info(created.created)
        if rpc == "GetWorld":
            return _info(w.info())
        if rpc == "DeleteWorld":
            w.delete()
            return {}
        if rpc == "ListWorlds":
            return {"worlds": [_info(i) for i in sorted(self.client.list_worlds(), key=lambda i: i.world_id)]}
        if rpc == "PushFrame":
            return {"oldest_tick": w.push_frame(req["frame"])}
        if rpc == "QueryWorld":
            r = w.query(req.get("ray_casts", []), req.get("shape_casts", []), req.get("overlaps", []))
            return {"ray_casts": [_ray(x) for x in r.ray_casts],
                    "shape_casts": [_cast(x) for x in r.shape_casts],
                    "overlaps": [_overlap(x) for x in r.overlaps]}
        if rpc == "CastWorldRaysPacked":
            f = req.get("filter", {})
            at = f.get("at")
            r = w.cast_rays_packed(_nums(req.get("rays")), mask=int(f.get("category_mask", 0)),
                                   ignore=f.get("ignore_bodies", ()),
                                   at=None if at is None else (at.get("tick", 0), at.get("fraction", 0.0)))
            out = {k: getattr(r, k) for k in ("hit", "distance", "point", "normal", "target_kind", "target_id",
                                              "target_index")}
            out["time"] = _time(r.time)
            return out
        if rpc == "ValidateShots":
            return {"verdicts": [_shot(v) for v in w.validate_shots(req.get("shots", []))]}
        if rpc == "ValidateShotsPacked":
            return {"verdicts": [_shot(v) for v in w.validate_shots_packed(
                _nums(req.get("doubles")), req.get("shooter_ids", []), req.get("ticks", []),
                req.get("claimed_body_ids", []), req.get("claimed_part_ids", []))]}
        if rpc == "ValidateMoves":
            return {"verdicts": [_move(v) for v in w.validate_moves(req.get("moves", []))]}
        raise ValueError(f"unknown rpc {rpc}")


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER") and os.environ.get("COLLIDE_WORLD_GOLDEN"),
                     "needs COLLIDE_SERVER and COLLIDE_WORLD_GOLDEN")
class WorldConformanceTest(GoldenServerTest):
    GOLDEN_ENV = "COLLIDE_WORLD_GOLDEN"

    def test_every_script(self):
        cases = self.golden["cases"]
        self.assertGreater(len(cases), 0)
        tol = self.golden["tolerance"]
        restarts = lost = 0
        for case in cases:
            runner = Runner(self.client)
            for i, step in enumerate(case["steps"]):
                with self.subTest(f"{case['name']} step {i} {step.get('rpc', 'restart')}"):
                    if step.get("restart_server"):
                        self.server.restart()
                        self.client.wait_ready(30)
                        restarts += 1
                        continue
                    before = runner.history_lost()
                    try:
                        got = runner.run(step["rpc"], step["request"])
                        error = None
                    except collide.CollideError as e:
                        got, error = None, e
                    self.assertEqual(runner.history_lost() - before, 1 if step.get("history_lost") else 0)
                    lost += runner.history_lost() - before
                    want = step.get("error")
                    if error is not None:
                        self.assertIsNotNone(want, f"{error}")
                        self.assertEqual(error.code.name, want["code"], f"{error}")
                        if "field_violations" in want:
                            self.assertEqual(sorted(error.fields), sorted(want["field_violations"]), f"{error}")
                        if want.get("reason"):
                            self.assertEqual(error.reason, want["reason"], f"{error}")
                        continue
                    self.assertIsNone(want, f"expected {want}, got {got}")
                    diff = mismatch(got, step["response"], tol)
                    self.assertIsNone(diff, diff)
        # The suite holds a restart, and the client re-created a world after it.
        self.assertGreater(restarts, 0)
        self.assertEqual(lost, restarts)


if __name__ == "__main__":
    unittest.main()
