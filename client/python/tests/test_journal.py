"""CreateWorld's journal option and WatchAudit from Python: without the
server's flag, FAILED_PRECONDITION; with it, one audit record per verdict on
the watch, which ends when the world is deleted."""

import os
import tempfile
import threading
import time
import unittest

import grpc

import collide
from collide.v1 import world_pb2
from live_server import LiveClientFixture

FLOOR = collide.StaticMesh(1, [-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0], [0, 1, 2, 0, 2, 3])
HEAD = collide.Part(0, collide.Sphere((0, 0, 0), 0.15), local=collide.Pose((0, 0, 1.7)))


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class WithoutTheFlagTest(LiveClientFixture, unittest.TestCase):
    def test_journal_needs_the_servers_flag(self):
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.create_world("py-journal", [FLOOR], journal=collide.Journal(audit=True))
        self.assertEqual(ctx.exception.code, grpc.StatusCode.FAILED_PRECONDITION)
        self.assertIn("--audit_dir", str(ctx.exception))
        self.assertNotIn("py-journal", [i.world_id for i in self.client.list_worlds()])


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class WatchAuditTest(LiveClientFixture, unittest.TestCase):
    audit_dir = tempfile.mkdtemp(prefix="collide-audit-")

    @classmethod
    def server_args(cls):
        return (f"--audit_dir={cls.audit_dir}",)

    def test_records_arrive_and_the_watch_ends_with_the_world(self):
        world = self.client.create_world("py-audit", [FLOOR], journal={"audit": True})
        world.push_frame(collide.Frame(1, [collide.Body(b, collide.Pose((b, 0, 0)), parts=[HEAD])
                                           for b in (1, 2)]))
        records = []
        watch = self.client.watch_audit("py-audit")
        reader = threading.Thread(target=lambda: records.extend(watch))
        reader.start()
        shot = collide.Shot(1, (1, 0, 1.7), (1, 0, 0), claimed=(2, 0))
        sent = 0
        deadline = time.monotonic() + 10
        while not records and time.monotonic() < deadline:  # until the watch has started
            world.validate_shots([shot])
            sent += 1
            time.sleep(0.01)
        world.validate_shots([shot, shot])
        world.delete()
        reader.join(timeout=10)
        self.assertFalse(reader.is_alive())
        self.assertGreaterEqual(len(records), 3)
        self.assertLessEqual(len(records), sent + 2)
        last = records[-1]
        self.assertEqual((last.world_id, last.call, last.index), ("py-audit", "ValidateShots", 1))
        self.assertEqual(last.shot.shot.shooter_id, 1)
        self.assertEqual(last.shot.verdict.code, world_pb2.SHOT_CODE_CONFIRMED)


if __name__ == "__main__":
    unittest.main()
