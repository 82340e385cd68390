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


def _violations(v):
    return [{"field": f, "description": d} for f, d in v.violations]


def _quat(q):
    return {"w": q[0], "x": q[1], "y": q[2], "z": q[3]}


def _shape(s):
    if s is None:
        return None
    if isinstance(s, collide.Sphere):
        return {"sphere": {"center": _vec(s.center), "radius": s.radius}}
    if isinstance(s, collide.Capsule):
        return {"capsule": {"a": _vec(s.a), "b": _vec(s.b), "radius": s.radius}}
    if isinstance(s, collide.Obb):
        return {"obb": {"center": _vec(s.center), "half_extents": _vec(s.half_extents),
                        "rotation": _quat(s.rotation)}}
    raise ValueError(f"unexpected posed shape {s!r}")


def _posed(b):
    if b is None:
        return None
    return {"id": b.id, "pose": {"position": _vec(b.pose.position), "rotation": _quat(b.pose.rotation)},
            "parts": [{"id": p.id, "shape": _shape(p.shape)} for p in b.parts], "category": b.category,
            "eye": _vec(b.eye)}


def _bodies(r):
    return {"time": _time(r.time), "bodies": [_posed(b) for b in r.bodies], "missing": r.missing}


def _shot_explanation(e):
    if e is None:
        return None
    ray = None
    if e.ray is not None:
        ray = {"origin": _vec(e.ray.origin), "direction": _vec(e.ray.direction)}
        if e.ray.max_distance is not None:
            ray["max_distance"] = e.ray.max_distance
    return {"command_at": {"tick": e.command_at[0], "fraction": e.command_at[1]}, "shooter": _posed(e.shooter),
            "ray": ray, "claimed_rewound": _posed(e.claimed_rewound), "claimed_latest": _posed(e.claimed_latest),
            "tolerance": e.tolerance, "nearest_claimed_part": e.nearest_claimed_part,
            "nearest_claimed_distance": e.nearest_claimed_distance}


def _move_explanation(e):
    if e is None:
        return None
    return {"from": _vec(e.from_), "to": _vec(e.to), "shape": _shape(e.shape),
            "sweeps": [{"from": _vec(s.from_), "to": _vec(s.to), "purpose": s.purpose} for s in e.sweeps],
            "contacts": [{"sweep": c.sweep, "t": c.t, "position": _vec(c.position), "normal": _vec(c.normal),
                          "target": _target(c.target)} for c in e.contacts],
            "reason": e.reason, "grounded_at_start": e.grounded_at_start, "horizontal_limit": e.horizontal_limit,
            "lowest_z": e.lowest_z, "highest_z": e.highest_z}


def _shot(v):
    return {"code": "SHOT_CODE_" + v.code, "first_hit": _hit(v.first_hit), "time": _time(v.time),
            "claimed_miss_distance": v.claimed_miss_distance, "origin_offset": v.origin_offset,
            "violations": _violations(v), "origin_allowance": v.origin_allowance,
            "rewound_across_teleport": v.rewound_across_teleport,
            "explanation": _shot_explanation(v.explanation)}


def _move(v):
    return {"code": "MOVE_CODE_" + v.code, "allowed_position": _vec(v.allowed_position), "t": v.t,
            "normal": _vec(v.normal), "target": _target(v.target), "depth": v.depth, "speed": v.speed,
            "slid_position": _vec(v.slid_position), "violations": _violations(v), "grounded": v.grounded,
            "explanation": _move_explanation(v.explanation)}


def _contact(c):
    if c is None:
        return None
    return {"seconds": c.seconds, "at": {"tick": c.at[0], "fraction": c.at[1]}, "position": _vec(c.position),
            "point": _vec(c.point), "normal": _vec(c.normal), "target": _target(c.target)}


def _projectile(v):
    return {"code": "PROJECTILE_CODE_" + v.code, "time": _time(v.time), "hit": _contact(v.hit),
            "bounces": [_contact(b) for b in v.bounces], "seconds": v.seconds,
            "end_at": {"tick": v.end_at[0], "fraction": v.end_at[1]}, "position": _vec(v.position),
            "velocity": _vec(v.velocity), "violations": _violations(v), "origin_offset": v.origin_offset,
            "origin_allowance": v.origin_allowance}


def _melee(v):
    return {"code": "SHOT_CODE_" + v.code, "time": _time(v.time), "eye": _vec(v.eye),
            "hits": [{"target": _target(h.target), "point": _vec(h.point), "distance": h.distance} for h in v.hits],
            "blocker": _hit(v.blocker), "claimed_miss_distance": v.claimed_miss_distance,
            "violations": _violations(v)}


def _fields(m):
    """A message as the goldens' JSON: every field, enums by name."""
    def one(f, v):
        if f.message_type is not None:
            return _fields(v)
        if f.enum_type is not None:
            return f.enum_type.values_by_number[v].name
        return v
    out = {}
    for f in m.DESCRIPTOR.fields:
        v = getattr(m, f.name)
        is_repeated = getattr(f, "is_repeated", None)
        repeated = is_repeated if isinstance(is_repeated, bool) else f.label == f.LABEL_REPEATED
        out[f.name] = [one(f, x) for x in v] if repeated else one(f, v)
    return out


def _info(i):
    policy = {k: _fields(v) if hasattr(v, "DESCRIPTOR") else v for k, v in i.policy.items()}
    return {"world_id": i.world_id, "static_elements": i.static_elements, "triangles": i.triangles,
            "degenerate_triangles": i.degenerate_triangles, "bodies": i.bodies, "latest_tick": i.latest_tick,
            "oldest_tick": i.oldest_tick, "frames_kept": i.frames_kept, "history_ticks": i.history_ticks,
            "policy": policy, "detected_teleports": i.detected_teleports}


def _visibility(v):
    """VisibilitySets as golden JSON: one set per observer asked, in order."""
    return {"sets": [{"observer": s.observer, "found": s.found, "visible": s.visible} for s in v.sets],
            "pairs": v.pairs, "hidden": v.hidden, "reused": v.reused, "time": _time(v.time)}


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
            return _query(w.query(**_query_args(req)))
        if rpc == "CastWorldRaysPacked":
            args = _rays_args(req)
            return _packed(w.cast_rays_packed(args.pop("rays"), **{k[5:]: v for k, v in args.items()}))
        if rpc == "ValidateShots":
            return _verdicts(w.validate_shots(req.get("shots", []), all_or_nothing=req.get("all_or_nothing", False),
                                              explain=req.get("explain", False)))
        if rpc == "ValidateShotsPacked":
            return _verdicts(w.validate_shots_packed(**_shots_packed_args(req)))
        if rpc == "ValidateMoves":
            return _verdicts(w.validate_moves(req.get("moves", []), all_or_nothing=req.get("all_or_nothing", False),
                                              explain=req.get("explain", False)))
        if rpc == "GetBodies":
            at = req.get("at")
            return _bodies(w.get_bodies((at.get("tick", 0), at.get("fraction", 0.0)) if at else None,
                                        req.get("body_ids", [])))
        if rpc == "ValidateProjectiles":
            verdicts = w.validate_projectiles(req.get("projectiles", []), all_or_nothing=req.get("all_or_nothing", False))
            return {"verdicts": [_projectile(v) for v in verdicts]}
        if rpc == "ValidateMelee":
            verdicts = w.validate_melee(req.get("melee", []), all_or_nothing=req.get("all_or_nothing", False))
            return {"verdicts": [_melee(v) for v in verdicts]}
        if rpc == "GetVisibility":
            return _visibility(w.get_visibility(**_visibility_args(req)))
        raise ValueError(f"unknown rpc {rpc}")

    def tick_args(self, message):
        """A Tick message's parts as TickStream.send's keywords."""
        args = {}
        for part, req in message.items():
            if part == "frame":
                args["frame"] = req
            elif part == "query":
                args.update(_query_args(req))
            elif part == "rays_packed":
                args.update(_rays_args(req))
            elif part == "shots_packed":
                args["shots_packed"] = _shots_packed_args(req)
            elif part in ("shots", "moves", "projectiles", "melee"):
                args[part] = req.get(part, [])
            elif part == "bodies":
                at = req.get("at")
                args["bodies"] = {"at": (at.get("tick", 0), at.get("fraction", 0.0)) if at else None,
                                  "body_ids": req.get("body_ids", [])}
            elif part == "visibility":
                args["visibility"] = _visibility_args(req)
            else:
                raise ValueError(f"unknown Tick part {part}")
        return args


def _tick_answer(a):
    """A TickAnswer as golden JSON (a part that did not run: None)."""
    return {"frame": None if a.oldest_tick is None else {"oldest_tick": a.oldest_tick},
            "query": a.query and _query(a.query), "rays_packed": a.rays_packed and _packed(a.rays_packed),
            "shots": _verdicts(a.shots), "shots_packed": _verdicts(a.shots_packed), "moves": _verdicts(a.moves),
            "bodies": a.bodies and _bodies(a.bodies),
            "projectiles": None if a.projectiles is None else {"verdicts": [_projectile(v) for v in a.projectiles]},
            "melee": None if a.melee is None else {"verdicts": [_melee(v) for v in a.melee]},
            "visibility": a.visibility and _visibility(a.visibility)}


def _visibility_args(req):
    """A GetVisibilityRequest's JSON as World.get_visibility's keywords."""
    at = req.get("at")
    return {"at": None if at is None else (at.get("tick", 0), at.get("fraction", 0.0)),
            "observers": req.get("observers", []), "tick_seconds": req.get("tick_seconds", 0.0),
            "latency": req.get("latency", 0.0), "margin": req.get("margin", 0.0),
            "target_category_mask": req.get("target_category_mask", 0)}


def _query_args(req):
    return {"ray_casts": req.get("ray_casts", []), "shape_casts": req.get("shape_casts", []),
            "overlaps": req.get("overlaps", [])}


def _query(r):
    return {"ray_casts": [_ray(x) for x in r.ray_casts], "shape_casts": [_cast(x) for x in r.shape_casts],
            "overlaps": [_overlap(x) for x in r.overlaps]}


def _rays_args(req):
    f = req.get("filter", {})
    at = f.get("at")
    return {"rays": _nums(req.get("rays")), "rays_mask": int(f.get("category_mask", 0)),
            "rays_ignore": f.get("ignore_bodies", ()),
            "rays_at": None if at is None else (at.get("tick", 0), at.get("fraction", 0.0))}


def _packed(r):
    out = {k: getattr(r, k) for k in ("hit", "distance", "point", "normal", "target_kind", "target_id",
                                      "target_index")}
    out["time"] = _time(r.time)
    return out


def _shots_packed_args(req):
    return {"doubles": _nums(req.get("doubles")), "shooter_ids": req.get("shooter_ids", []),
            "ticks": req.get("ticks", []), "claimed_body_ids": req.get("claimed_body_ids", []),
            "claimed_part_ids": req.get("claimed_part_ids", []),
            "all_or_nothing": req.get("all_or_nothing", False), "explain": req.get("explain", False),
            **{k: req[k] for k in ("command_ticks", "expected_ticks", "category_masks", "ignore_counts",
                                   "ignore_body_ids") if k in req}}


def _verdicts(verdicts):
    if verdicts is None:
        return None
    return {"verdicts": [_shot(v) if isinstance(v, collide.ShotVerdict) else _move(v) for v in verdicts]}


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER") and os.environ.get("COLLIDE_WORLD_GOLDEN"),
                     "needs COLLIDE_SERVER and COLLIDE_WORLD_GOLDEN")
class WorldConformanceTest(GoldenServerTest):
    GOLDEN_ENV = "COLLIDE_WORLD_GOLDEN"

    def test_every_script(self):
        self.run_scripts("cases")

    def test_every_stream_script(self):
        self.run_scripts("stream_cases")

    def run_scripts(self, key):
        cases = self.golden[key]
        self.assertGreater(len(cases), 0)
        restarts = lost = 0
        for case in cases:
            runner = Runner(self.client)
            for i, step in enumerate(case["steps"]):
                name = f"{case['name']} step {i} {step.get('rpc', 'tick' if 'tick' in step else 'restart')}"
                with self.subTest(name):
                    if step.get("restart_server"):
                        self.server.restart()
                        self.client.wait_ready(30)
                        restarts += 1
                    elif "tick" in step:
                        world = runner.world(case["steps"][0]["request"]["world_id"])
                        with world.stream() as stream:
                            for j, exchange in enumerate(step["tick"]):
                                with self.subTest(f"{name} message {j}"):
                                    before = runner.history_lost()
                                    answer = stream.tick(**runner.tick_args(exchange["message"]))
                                    lost += self.check(exchange, runner.history_lost() - before, answer.error,
                                                       _tick_answer(answer), exchange["answer"])
                    else:
                        before = runner.history_lost()
                        try:
                            got, error = runner.run(step["rpc"], step["request"]), None
                        except collide.CollideError as e:
                            got, error = None, e
                        lost += self.check(step, runner.history_lost() - before, error, got, step.get("response"))
        # The suite holds a restart, and the client re-created a world after each.
        self.assertGreater(restarts, 0)
        self.assertEqual(lost, restarts)

    def check(self, step, lost, error, got, response):
        """Compares one answer (a step's or a Tick message's) with the golden;
        returns the re-creations it took."""
        self.assertEqual(lost, 1 if step.get("history_lost") else 0)
        want = step.get("error") or (response or {}).get("error")
        if error is not None:
            self.assertIsNotNone(want, f"{error}")
            self.assertEqual(error.code.name, want["code"], f"{error}")
            if "field_violations" in want:
                self.assertEqual(sorted(error.fields), sorted(want["field_violations"]), f"{error}")
            if want.get("reason"):
                self.assertEqual(error.reason, want["reason"], f"{error}")
        else:
            self.assertIsNone(want, f"expected {want}, got {got}")
        if response is not None:
            diff = mismatch(got, {k: v for k, v in response.items() if k != "error"}, self.golden["tolerance"])
            self.assertIsNone(diff, diff)
        return lost


if __name__ == "__main__":
    unittest.main()
