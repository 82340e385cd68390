"""collide-server's Prometheus endpoint (--metrics_port, plain HTTP GET
/metrics): a real server is called a known number of times, its endpoint
scraped and the text parsed by Debian's python3-prometheus-client parser, and
every count compared with the calls made. Run by ctest with /usr/bin/python3,
the Python client on PYTHONPATH and COLLIDE_SERVER set.
"""
import re
import time
import unittest
import urllib.error
import urllib.request

import grpc
from prometheus_client.parser import text_string_to_metric_families

import collide
from collide import Client, CollideError, Sphere
from live_server import LiveServer

RPCS = ("QueryPairs", "QueryPairsPacked", "CastRays", "CastRaysPacked", "GetServerInfo")


WORLD_TTL_S = 2


class MetricsTest(unittest.TestCase):
    def setUp(self):
        self.server = LiveServer(["--metrics_port=0", "--worker_threads=1", f"--world_idle_ttl={WORLD_TTL_S}s"])
        self.addCleanup(self.server.stop)
        deadline = time.monotonic() + 10
        while not (m := re.search(r"metrics on http://127\.0\.0\.1:(\d+)/metrics", self.server.log())):
            self.assertLess(time.monotonic(), deadline, self.server.log())
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{m.group(1)}"

    def scrape(self):
        """{(sample name, frozenset of labels): value} of one scrape."""
        with urllib.request.urlopen(self.url + "/metrics", timeout=5) as response:
            self.assertEqual(response.status, 200)
            self.assertIn("version=0.0.4", response.headers["Content-Type"])
            text = response.read().decode()
        samples = {}
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                samples[(s.name, frozenset(s.labels.items()))] = s.value
        return samples

    @staticmethod
    def value(samples, name, **labels):
        return samples.get((name, frozenset(labels.items())), 0)

    def test_counts_match_the_calls_made(self):
        with Client(self.server.target, timeout=10) as client:
            for _ in range(7):  # 3 sphere pairs each
                client.query_pairs_packed("contact", "sphere", [0, 0, 0, 1] * 3, [1.5, 0, 0, 1] * 3)
            for _ in range(5):  # 2 pairs each
                client.query_pairs("intersect", [(Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 1))] * 2)
            for _ in range(2):
                with self.assertRaises(CollideError) as bad:
                    client.query_pairs("intersect", [(Sphere((0, 0, 0), -1), Sphere((3, 0, 0), 1))])
                self.assertEqual(bad.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
            for _ in range(4):
                client.server_info()
        samples = self.scrape()
        requests = "collide_requests_total"
        items = "collide_items_total"
        self.assertEqual(self.value(samples, requests, rpc="QueryPairsPacked", code="OK"), 7)
        self.assertEqual(self.value(samples, items, rpc="QueryPairsPacked", code="OK"), 21)
        self.assertEqual(self.value(samples, requests, rpc="QueryPairs", code="OK"), 5)
        self.assertEqual(self.value(samples, items, rpc="QueryPairs", code="OK"), 10)
        self.assertEqual(self.value(samples, requests, rpc="QueryPairs", code="INVALID_ARGUMENT"), 2)
        self.assertEqual(self.value(samples, requests, rpc="GetServerInfo", code="OK"), 4)
        for rpc in ("CastRays", "CastRaysPacked"):
            self.assertEqual(sum(v for (n, l), v in samples.items() if n == requests and ("rpc", rpc) in l), 0)
        self.assertEqual(self.value(samples, "collide_calls_in_flight"), 0)

        # One latency observation per call, in cumulative buckets.
        latency = "collide_request_duration_seconds"
        for rpc in RPCS:
            calls = sum(v for (n, l), v in samples.items() if n == requests and ("rpc", rpc) in l)
            buckets = sorted((float(dict(l)["le"]), v) for (n, l), v in samples.items()
                             if n == latency + "_bucket" and dict(l)["rpc"] == rpc)
            self.assertGreater(len(buckets), 5, rpc)
            counts = [v for _, v in buckets]
            self.assertEqual(counts, sorted(counts), f"{rpc}: buckets must be cumulative")
            self.assertEqual(buckets[-1], (float("inf"), calls), rpc)
            self.assertEqual(self.value(samples, latency + "_count", rpc=rpc), calls, rpc)
            total = self.value(samples, latency + "_sum", rpc=rpc)
            if calls:
                self.assertGreater(total, 0, rpc)
                self.assertLess(total, 10 * calls, f"{rpc}: seconds, not another unit")
            else:
                self.assertEqual(total, 0, rpc)

        # Counters only grow: the same calls again double them.
        with Client(self.server.target, timeout=10) as client:
            for _ in range(7):
                client.query_pairs_packed("contact", "sphere", [0, 0, 0, 1] * 3, [1.5, 0, 0, 1] * 3)
        self.assertEqual(self.value(self.scrape(), items, rpc="QueryPairsPacked", code="OK"), 42)

    def test_world_metrics_match_the_calls_made(self):
        head = collide.Part(0, collide.Sphere((0, 0, 0), 0.15), local=collide.Pose((0, 0, 1.7)))
        chest = collide.Part(1, collide.Capsule((0, 0, 1.0), (0, 0, 1.4), 0.25))

        def player(body_id, x):
            return collide.Body(body_id, collide.Pose((x, 0, 0)), parts=[head, chest])

        floor = collide.StaticMesh(1, [-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0], [0, 1, 2, 0, 2, 3])
        wall = collide.StaticShape(2, collide.Aabb((4, -3, 0), (4.5, 3, 3)))
        shots = [collide.Shot(1, (0, 0, 1.7), (1, 0, 0), claimed=(2, 0)),
                 collide.Shot(1, (0, 0, 1.2), (1, 0, 0), max_range=30, claimed=(2, 0), tolerance=0.05),
                 collide.Shot(1, (0, 0, 1.2), (0, 1, 0)),
                 collide.Shot(9, (0, 0, 1.2), (0, 1, 0))]
        moves = [collide.Move(1, (0.5, 0, 0), 0.5), collide.Move(99, (1, 0, 0), 0.5)]
        with Client(self.server.target, timeout=10) as client:
            world = client.create_world("metrics-a", [floor, wall])
            for tick in (1, 2, 3):
                world.push_frame(collide.Frame(tick, [player(1, 0), player(2, 2)]))
            shot_verdicts = world.validate_shots(shots) + world.validate_shots(shots)
            move_verdicts = world.validate_moves(moves)
            # The Tick stream: each message is a "Tick" call, its parts count as the unary ones; the
            # failing message's frame ran (the shots after it did not).
            with world.stream() as stream:
                a = stream.tick(collide.Frame(4, [player(1, 0), player(2, 2)]), shots=shots)
                b = stream.tick(collide.Frame(5, [player(1, 0), player(2, 2)]), moves=moves)
                bad = stream.tick(collide.Frame(6), shots=[collide.Shot(1, (0, 0, 1.7), (0, 0, 0))],
                                  all_or_nothing=True)
                self.assertEqual(self.value(self.scrape(), "collide_tick_streams"), 1)
            self.assertEqual((a.error, b.error, bad.error.code), (None, None, grpc.StatusCode.INVALID_ARGUMENT))
            shot_codes = collide.count_codes(shot_verdicts + a.shots)
            move_codes = collide.count_codes(move_verdicts + b.moves)
            self.assertGreater(len(shot_codes), 2, shot_codes)
            self.assertGreater(len(move_codes), 1, move_codes)
            with self.assertRaises(CollideError) as lost:
                client.world("metrics-none").push_frame(collide.Frame(1))
            self.assertEqual(lost.exception.code, grpc.StatusCode.NOT_FOUND)
            client.create_world("metrics-b").delete()
            # The stream is removed once gRPC is done with it, just after its status.
            deadline = time.monotonic() + 5
            while self.value(samples := self.scrape(), "collide_tick_streams") and time.monotonic() < deadline:
                time.sleep(0.01)

            self.assertEqual(self.value(samples, "collide_worlds"), 1)
            self.assertEqual(self.value(samples, "collide_tick_streams"), 0)
            self.assertEqual(self.value(samples, "collide_world_bodies"), 2)
            self.assertEqual(self.value(samples, "collide_world_triangles"), 2)
            memory = self.value(samples, "collide_world_memory_bytes")
            self.assertGreater(memory, 0)
            self.assertLess(memory, self.value(samples, "collide_world_memory_budget_bytes"))
            self.assertEqual(self.value(samples, "collide_worlds_created_total"), 2)
            self.assertEqual(self.value(samples, "collide_worlds_deleted_total"), 1)
            self.assertEqual(self.value(samples, "collide_worlds_evicted_total"), 0)
            self.assertEqual(self.value(samples, "collide_world_frames_total"), 6)
            for name, codes in (("collide_world_shot_verdicts_total", shot_codes),
                                ("collide_world_move_verdicts_total", move_codes)):
                reported = {dict(l)["code"]: v for (n, l), v in samples.items() if n == name}
                self.assertEqual(reported, codes, name)

            requests, items = "collide_requests_total", "collide_items_total"
            self.assertEqual(self.value(samples, requests, rpc="PushFrame", code="OK"), 3)
            self.assertEqual(self.value(samples, requests, rpc="PushFrame", code="NOT_FOUND"), 1)
            self.assertEqual(self.value(samples, requests, rpc="ValidateShots", code="OK"), 2)
            self.assertEqual(self.value(samples, items, rpc="ValidateShots", code="OK"), 2 * len(shots))
            self.assertEqual(self.value(samples, items, rpc="ValidateMoves", code="OK"), len(moves))
            self.assertEqual(self.value(samples, requests, rpc="CreateWorld", code="OK"), 2)
            self.assertEqual(self.value(samples, requests, rpc="DeleteWorld", code="OK"), 1)
            self.assertEqual(self.value(samples, requests, rpc="Tick", code="OK"), 2)
            self.assertEqual(self.value(samples, requests, rpc="Tick", code="INVALID_ARGUMENT"), 1)
            self.assertEqual(self.value(samples, items, rpc="Tick", code="OK"), len(shots) + len(moves))
            latency = "collide_request_duration_seconds"
            self.assertEqual(self.value(samples, latency + "_count", rpc="PushFrame"), 4)
            self.assertEqual(self.value(samples, latency + "_bucket", rpc="ValidateShots", le="+Inf"), 2)
            self.assertGreater(self.value(samples, latency + "_sum", rpc="ValidateShots"), 0)

            # Idle past the TTL: the next registry sweep (ListWorlds) evicts it.
            time.sleep(WORLD_TTL_S + 0.5)
            self.assertEqual(client.list_worlds(), [])
        samples = self.scrape()
        self.assertEqual(self.value(samples, "collide_worlds_evicted_total"), 1)
        for gauge in ("collide_worlds", "collide_world_bodies", "collide_world_triangles",
                      "collide_world_memory_bytes"):
            self.assertEqual(self.value(samples, gauge), 0, gauge)

    def test_only_metrics_is_served(self):
        with self.assertRaises(urllib.error.HTTPError) as other:
            urllib.request.urlopen(self.url + "/", timeout=5)
        self.assertEqual(other.exception.code, 404)


if __name__ == "__main__":
    unittest.main()
