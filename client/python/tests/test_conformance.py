"""Runs every case of tests/conformance/golden.json through the Python
client against a live collide-server ($COLLIDE_GOLDEN, $COLLIDE_SERVER)."""

import dataclasses
import json
import os
import unittest

import collide
from live_server import LiveClientFixture


def _num(v):
    # proto3 JSON spells non-finite doubles as strings.
    return float(v) if isinstance(v, str) else v


def _nums(values):
    return [_num(v) for v in values or []]


def _vec(t):
    return {"x": t[0], "y": t[1], "z": t[2]}


def _pair(r):
    return {"hit": r.hit, "distance": r.distance, "point_a": _vec(r.point_a),
            "point_b": _vec(r.point_b), "normal": _vec(r.normal), "status": r.status}


def _hit(h):
    return {"hit": h.hit, "distance": h.distance, "point": _vec(h.point), "normal": _vec(h.normal),
            "status": h.status}


def run(client, rpc, req):
    """Sends the case's request through the wrapper; the answer as golden JSON."""
    if rpc == "QueryPairs":
        pairs = [(p.get("a", {}), p.get("b", {})) for p in req.get("pairs", [])]
        return {"results": [_pair(r) for r in client.query_pairs(req.get("level", 0), pairs)]}
    if rpc == "QueryPairsPacked":
        a, b = req["a"], req["b"]
        r = client.query_pairs_packed(req.get("level", 0), a.get("kind", 0), _nums(a.get("data")),
                                      _nums(b.get("data")), kind_b=b.get("kind", 0))
        return dataclasses.asdict(r)
    if rpc == "CastRays":
        casts = [(c.get("ray", {}), c.get("shape", {})) for c in req.get("casts", [])]
        return {"hits": [_hit(h) for h in client.cast_rays(casts)]}
    if rpc == "CastRaysPacked":
        shapes = req.get("shapes", {})
        r = client.cast_rays_packed(shapes.get("kind", 0), _nums(req.get("rays")),
                                    _nums(shapes.get("data")))
        return dataclasses.asdict(r)
    if rpc == "GetServerInfo":
        info = client.server_info()
        assert info.version and info.replica, info
        return dataclasses.asdict(info)
    if rpc == "Health":
        return {"status": client.health(req.get("service", ""))}
    raise ValueError(f"unknown rpc {rpc}")


def mismatch(got, want, tol, path="response"):
    """The first difference (None if none): numbers within tol, the rest
    exact, every key of `want` compared (absent vectors count as zero; a
    null `want` is a message that must be unset)."""
    if want is None:
        return None if got is None else f"{path}: got {got!r}, want unset"
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{path}: got {got!r}, want {want!r}"
        for key, value in want.items():
            diff = mismatch(got.get(key), value, tol, f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{path}: got {got!r}, want {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            diff = mismatch(g, w, tol, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if isinstance(want, bool) or isinstance(want, str):
        return None if got == want else f"{path}: got {got!r}, want {want!r}"
    if isinstance(got, (int, float)) and not isinstance(got, bool):
        if abs(got - want) <= tol["abs"] + tol["rel"] * abs(want):
            return None
    return f"{path}: got {got!r}, want {want!r}"


class GoldenServerTest(LiveClientFixture, unittest.TestCase):
    """Loads the golden file named by $<GOLDEN_ENV> and starts a server with
    its server_args, and a client of it."""

    GOLDEN_ENV = "COLLIDE_GOLDEN"

    @classmethod
    def setUpClass(cls):
        with open(os.environ[cls.GOLDEN_ENV], encoding="utf-8") as f:
            cls.golden = json.load(f)
        super().setUpClass()

    @classmethod
    def server_args(cls):
        return cls.golden["server_args"]


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER") and os.environ.get("COLLIDE_GOLDEN"),
                     "needs COLLIDE_SERVER and COLLIDE_GOLDEN")
class ConformanceTest(GoldenServerTest):

    def test_every_case(self):
        cases = self.golden["cases"]
        self.assertGreater(len(cases), 0)
        tol = self.golden["tolerance"]
        for case in cases:
            with self.subTest(case["name"]):
                try:
                    got = run(self.client, case["rpc"], case["request"])
                except collide.CollideError as e:
                    want = case.get("error")
                    self.assertIsNotNone(want, f"{e}")
                    self.assertEqual(e.code.name, want["code"], f"{e}")
                    if "field_violations" in want:
                        self.assertEqual(sorted(e.fields), sorted(want["field_violations"]), f"{e}")
                    continue
                self.assertNotIn("error", case, f"expected {case.get('error')}, got {got}")
                diff = mismatch(got, case["response"], tol)
                self.assertIsNone(diff, diff)


if __name__ == "__main__":
    unittest.main()
