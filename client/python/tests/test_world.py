"""The Python world API: input conversion and the state kept for re-creation
offline, then worlds on a live collide-server (the answers themselves are
held to the core by test_world_conformance.py)."""

import array
import math
import os
import unittest

import grpc

import collide
from collide.v1 import world_pb2
from collide.world_inputs import frame_to_proto, move_to_proto, shot_to_proto, static_to_proto
from live_server import LiveClientFixture

try:
    import numpy
except ImportError:  # numpy is optional for the client; its tests need it.
    numpy = None

HEAD = collide.Part(0, collide.Sphere((0, 0, 0), 0.15), local=collide.Pose((0, 0, 1.7)))
CHEST = collide.Part(1, collide.Capsule((0, 0, 1.0), (0, 0, 1.4), 0.25))


def player(body_id, x, y=0.0):
    return collide.Body(body_id, collide.Pose((x, y, 0)), parts=[HEAD, CHEST])


WALL = collide.StaticShape(2, collide.Aabb((4, -3, 0), (4.5, 3, 3)))
FLOOR = collide.StaticMesh(1, [-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0], [0, 1, 2, 0, 2, 3])


class InputsTest(unittest.TestCase):
    def test_dataclasses_and_dicts_agree(self):
        self.assertEqual(
            frame_to_proto(collide.Frame(3, [collide.Body(7, collide.Pose((1, 2, 3), (0, 0, 0, 1)),
                                                          parts=[HEAD], part_poses=[(0, collide.Pose((0, 0, 2)))],
                                                          teleport=True, category=8,
                                                          movement_shape=collide.Sphere((0, 0, 1), 0.5))],
                                         removals=[4])),
            frame_to_proto({"tick": 3, "removals": [4], "bodies": [{
                "id": 7, "pose": {"position": [1, 2, 3], "rotation": [0, 0, 0, 1]}, "teleport": True,
                "parts": [{"id": 0, "shape": {"sphere": {"center": [0, 0, 0], "radius": 0.15}},
                           "local": {"position": [0, 0, 1.7]}}],
                "part_poses": [{"part": 0, "local": {"position": [0, 0, 2]}}], "category": 8,
                "movement_shape": {"sphere": {"center": [0, 0, 1], "radius": 0.5}}}]}))
        self.assertEqual(
            shot_to_proto(collide.Shot(1, (0, 0, 1), (1, 0, 0), max_range=50, at=(4, 0.5), claimed=(2, 0),
                                       tolerance=0.1)),
            shot_to_proto({"shooter_id": 1, "origin": [0, 0, 1], "direction": [1, 0, 0], "max_range": 50,
                           "at": {"tick": 4, "fraction": 0.5}, "claimed": {"body_id": 2, "part_id": 0},
                           "tolerance": 0.1}))
        move = move_to_proto(collide.Move(3, (1, 0, 0), 0.5, from_=(0, 0, 0), max_speed=4, slide=True))
        self.assertTrue(move.HasField("from") and move.HasField("max_speed"))
        self.assertFalse(move_to_proto(collide.Move(3, (1, 0, 0), 0.5)).HasField("from"))
        self.assertFalse(shot_to_proto(collide.Shot(1, (0, 0, 1), (1, 0, 0), max_range=math.inf))
                         .HasField("max_range"))
        self.assertEqual(static_to_proto(collide.StaticMap(1, "a.pk3", "dm1")).map_file.map, "dm1")

    def test_numpy_arrays_are_flattened_in_one_call(self):
        if numpy is None:
            self.skipTest("numpy is not installed")
        mesh = static_to_proto(collide.StaticMesh(1, numpy.zeros((4, 3)), numpy.array([[0, 1, 2]])))
        self.assertEqual(len(mesh.mesh.vertices), 12)
        self.assertEqual(list(mesh.mesh.indices), [0, 1, 2])

    def test_state_kept_for_recreation_folds_frames(self):
        world = collide.World(None, "w", world_pb2.CreateWorldRequest(world_id="w"))
        self.assertIsNone(world.state_frame())
        world.frame_applied(frame_to_proto(collide.Frame(1, [player(1, 0), player(2, 5), player(3, 9)])))
        world.frame_applied(frame_to_proto(collide.Frame(4, [
            collide.Body(2, part_poses=[(0, collide.Pose((0, 0.3, 1.6)))], category=16),
            collide.Body(1, collide.Pose((1, 0, 0)))], removals=[3])))
        state = world.state_frame()
        self.assertEqual(state.tick, 4)
        bodies = {b.id: b for b in state.bodies}
        self.assertEqual(sorted(bodies), [1, 2])
        self.assertEqual(bodies[1].pose.position.x, 1)
        self.assertEqual(bodies[2].pose.position.x, 5)  # not in the latest frame: kept
        self.assertEqual(bodies[2].category, 16)
        self.assertEqual([p.id for p in bodies[2].parts], [0, 1])
        self.assertAlmostEqual(bodies[2].parts[0].local.position.y, 0.3)


class WorldFixture(LiveClientFixture):
    """A server for the class, a client, and arenas (floor and wall) deleted
    after each test if they still exist."""

    def arena(self, world_id, **kwargs):
        world = self.client.create_world(world_id, [FLOOR, WALL], **kwargs)
        self.addCleanup(lambda: world_id in [i.world_id for i in self.client.list_worlds()] and
                        self.client.delete_world(world_id))
        return world


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class LiveWorldTest(WorldFixture, unittest.TestCase):

    def test_lifecycle_and_errors_carry_reason_and_fields(self):
        world = self.arena("py-life", history_ticks=8, policy=collide.Policy(max_rewind_ticks=4))
        self.assertEqual((world.created.triangles, world.created.history_ticks), (2, 8))
        self.assertEqual(world.created.policy["max_rewind_ticks"], 4)
        self.assertIn("py-life", [i.world_id for i in self.client.list_worlds()])
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.create_world("py-life")
        self.assertEqual(ctx.exception.code, grpc.StatusCode.ALREADY_EXISTS)
        with self.assertRaises(collide.CollideError) as ctx:
            world.push_frame(collide.Frame(1, [collide.Body(1, collide.Pose((0, 0, 0), (0, 0, 0, 0)))]))
        self.assertEqual(ctx.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(sorted(ctx.exception.fields), ["frame.bodies[0].parts", "frame.bodies[0].pose.rotation"])
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.get_world("py-never")
        self.assertEqual((ctx.exception.code, ctx.exception.reason, ctx.exception.domain),
                         (grpc.StatusCode.NOT_FOUND, "WORLD_NOT_FOUND", "collide.v1"))
        self.assertEqual(ctx.exception.metadata.get("world_id"), "py-never")

    def test_packed_forms_agree_with_readable_ones(self):
        world = self.arena("py-packed")
        world.push_frame(collide.Frame(1, [player(1, 0), player(2, 2)]))
        rays = [(-1, 0, 1.2, 1, 0, 0, math.inf), (0, 0, 5, 0, 0, 1, 10), (8, -7, 5, 0, 0, -1, 100)]
        readable = world.cast_rays([collide.RayCast(collide.Ray(r[:3], r[3:6], r[6]), ignore=[1]) for r in rays])
        forms = [[v for r in rays for v in r], array.array("d", [v for r in rays for v in r])]
        if numpy is not None:
            forms.append(numpy.array(rays))
        for flat_rays in forms:
            with self.subTest(type(flat_rays).__name__):
                packed = world.cast_rays_packed(flat_rays, ignore=[1])
                self.assertEqual(packed.hit, [bool(r.hits) for r in readable])
                self.assertEqual(packed.distance[0], readable[0].hits[0].distance)
                self.assertEqual((packed.target_kind[0], packed.target_id[0], packed.target_index[0]), (2, 2, 1))
                self.assertEqual(readable[0].hits[0].target, collide.Target("body", 2, 1))
        if numpy is not None:
            arrays = world.cast_rays_packed(numpy.array(rays), ignore=[1]).numpy()
            self.assertEqual(arrays["point"].shape, (3, 3))
            self.assertEqual(arrays["hit"].tolist(), [True, False, True])

        shots = [collide.Shot(1, (0, 0, 1.7), (1, 0, 0), claimed=(2, 0)),
                 collide.Shot(1, (0, 0, 1.2), (1, 0, 0), max_range=30, claimed=(2, 0), tolerance=0.05),
                 collide.Shot(1, (0, 0, 1.2), (0, 1, 0))]
        readable_shots = world.validate_shots(shots)
        self.assertEqual([v.code for v in readable_shots], ["CONFIRMED", "HIT_OTHER_PART", "MISSED"])
        doubles = [0, 0, 1.7, 1, 0, 0, math.inf, 0, 0, 0, 0, 0, 1.2, 1, 0, 0, 30, 0, 0.05, 0,
                   0, 0, 1.2, 0, 1, 0, math.inf, 0, 0, 0]
        packed_shots = world.validate_shots_packed(
            numpy.array(doubles) if numpy is not None else doubles, [1, 1, 1], [collide.LATEST_TICK] * 3, [2, 2, -1],
            [0, 0, -1])
        self.assertEqual(packed_shots, readable_shots)
        self.assertEqual(collide.count_codes(packed_shots), {"CONFIRMED": 1, "HIT_OTHER_PART": 1, "MISSED": 1})

    def test_a_lost_world_is_recreated_once_from_what_the_handle_kept(self):
        lost = []
        world = self.arena("py-lost", on_history_lost=lost.append)
        world.push_frame(collide.Frame(1, [player(1, 0), player(2, 5), player(3, 9)]))
        world.push_frame(collide.Frame(2, [collide.Body(2, collide.Pose((2, 0, 0)))], removals=[3]))
        self.client.delete_world("py-lost")  # what a replica restart does to it
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.world("py-lost").info()  # a handle without the creation request
        self.assertEqual(ctx.exception.reason, "WORLD_NOT_FOUND")
        with self.assertLogs("collide", "WARNING"):
            [v] = world.validate_shots([collide.Shot(1, (0, 0, 1.2), (1, 0, 0), claimed=(2, 1))])
        self.assertEqual(v.code, "CONFIRMED")
        self.assertAlmostEqual(v.first_hit.distance, 1.75, places=12)  # body 2 where frame 2 put it
        self.assertEqual((lost, world.history_lost), ([world], 1))
        info = world.info()
        self.assertEqual((info.bodies, info.latest_tick, info.frames_kept), (2, 2, 1))
        self.assertEqual(world.push_frame(collide.Frame(3)), 2)
        self.assertEqual(world.history_lost, 1)

        fragile = self.arena("py-fragile", recreate=False)
        self.client.delete_world("py-fragile")
        with self.assertRaises(collide.CollideError) as ctx:
            fragile.push_frame(collide.Frame(1, [player(1, 0)]))
        self.assertEqual(ctx.exception.code, grpc.StatusCode.NOT_FOUND)
        self.assertEqual(fragile.history_lost, 0)

    def test_a_frame_lost_with_the_world_is_pushed_after_recreation(self):
        world = self.arena("py-push-lost")
        world.push_frame(collide.Frame(5, [player(1, 0)]))
        self.client.delete_world("py-push-lost")
        self.assertEqual(world.push_frame(collide.Frame(6, [collide.Body(1, collide.Pose((1, 0, 0)))])), 5)
        info = world.info()
        self.assertEqual((info.oldest_tick, info.latest_tick, world.history_lost), (5, 6, 1))


if __name__ == "__main__":
    unittest.main()
