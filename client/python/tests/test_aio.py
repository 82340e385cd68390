"""collide.aio against a live collide-server: every RPC of the asyncio client
gives what the blocking client gives for the same input, errors carry their
codes and reasons, and a world lost by a server restart is re-created."""

import math
import os
import unittest

import collide
from collide import MoveCode, ShotCode
from collide.aio import AsyncClient
from live_server import LiveClientFixture

HEAD = collide.Part(0, collide.Sphere((0, 0, 0), 0.2), local=collide.Pose((0, 0, 1.7)))
WALL = collide.StaticShape(2, collide.Aabb((4, -3, 0), (4.5, 3, 3)))
FLOOR = collide.StaticMesh(1, [-10, -10, 0, 10, -10, 0, 10, 10, 0, -10, 10, 0], [0, 1, 2, 0, 2, 3])


def frame(tick):
    """Body 1 at the origin, body 2 at (2, 0) in the open, body 3 at (6, 2) behind the wall."""
    return collide.Frame(tick, [collide.Body(i + 1, collide.Pose((x, y, 0)), parts=[HEAD])
                                for i, (x, y) in enumerate([(0, 0), (2, 0), (6, 2)])])


SHOTS = [collide.Shot(1, (0, 0, 1.7), (1, 0, 0), at=1, claimed=(2, 0)),
         collide.Shot(1, (0, 0, 1.7), (6, 2, 0), at=1, claimed=(3, 0))]
MOVES = [collide.Move(2, (2, 1, 0), 0.5), collide.Move(2, (2, 50, 0), 0.1)]


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class AsyncClientTest(LiveClientFixture, unittest.IsolatedAsyncioTestCase):

    async def asyncSetUp(self):
        self.aio = AsyncClient(self.server.target, timeout=30)

    async def asyncTearDown(self):
        await self.aio.close()

    async def test_service_calls(self):
        self.assertEqual(await self.aio.health(), "SERVING")
        info = await self.aio.server_info()
        self.assertEqual(info.version, collide.__version__)
        self.assertEqual(info.max_items_per_request, self.client.server_info().max_items_per_request)

    async def test_pair_queries_and_ray_casts_equal_the_blocking_client(self):
        pairs = [(collide.Sphere((0, 0, 0), 1), collide.Sphere((1.5, 0, 0), 1)),
                 (collide.Capsule((0, 0, 0), (0, 0, 2), 0.5), collide.Aabb((1, -1, -1), (2, 1, 1)))]
        self.assertEqual(await self.aio.query_pairs("contact", pairs), self.client.query_pairs("contact", pairs))
        a, b = [0, 0, 0, 1, 5, 0, 0, 1], [1.5, 0, 0, 1, 0, 0, 0, 1]
        got = await self.aio.query_pairs_packed("distance", "sphere", a, b)
        want = self.client.query_pairs_packed("distance", "sphere", a, b)
        self.assertEqual((list(got.hit), list(got.distance)), (list(want.hit), list(want.distance)))
        self.assertEqual(list(got.hit), [True, False])
        casts = [(collide.Ray((-5, 0, 0), (1, 0, 0)), collide.Sphere((0, 0, 0), 1))]
        hits = await self.aio.cast_rays(casts)
        self.assertEqual(hits, self.client.cast_rays(casts))
        self.assertAlmostEqual(hits[0].distance, 4.0)
        rays, spheres = [-5, 0, 0, 1, 0, 0, math.inf], [0, 0, 0, 1]
        packed = await self.aio.cast_rays_packed("sphere", rays, spheres)
        self.assertEqual(list(packed.distance), list(self.client.cast_rays_packed("sphere", rays, spheres).distance))

    async def test_world_calls_equal_the_blocking_client(self):
        world = await self.aio.create_world("py-aio", [FLOOR, WALL], history_ticks=8)
        twin = self.client.create_world("py-aio-twin", [FLOOR, WALL], history_ticks=8)
        self.addCleanup(twin.delete)
        self.assertEqual(world.created.triangles, 2)
        self.assertEqual(await world.push_frame(frame(1)), twin.push_frame(frame(1)))
        self.assertIn("py-aio", [w.world_id for w in await self.aio.list_worlds()])
        self.assertEqual((await world.info()).bodies, 3)
        self.assertEqual((await self.aio.get_world("py-aio")).latest_tick, 1)

        verdicts = await world.validate_shots(SHOTS)
        self.assertEqual([v.code for v in verdicts], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
        self.assertEqual(verdicts, twin.validate_shots(SHOTS))
        doubles = [0, 0, 1.7, 1, 0, 0, math.inf, 0, 0, 0] + [0, 0, 1.7, 6, 2, 0, math.inf, 0, 0, 0]
        packed = await world.validate_shots_packed(doubles, [1, 1], [1, 1], [2, 3], [0, 0])
        self.assertEqual([v.code for v in packed], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
        moves = await world.validate_moves(MOVES)
        self.assertEqual([m.code for m in moves], [MoveCode.OK, MoveCode.TOO_FAST])
        self.assertEqual(moves, twin.validate_moves(MOVES))
        # Explained verdicts and posed bodies, as the blocking client's.
        explained = await world.validate_shots(SHOTS, explain=True)
        self.assertEqual(explained, twin.validate_shots(SHOTS, explain=True))
        self.assertEqual(explained[0].explanation.claimed_rewound.id, 2)
        self.assertIsNone(verdicts[0].explanation)
        explained_moves = await world.validate_moves(MOVES, explain=True)
        self.assertEqual(explained_moves, twin.validate_moves(MOVES, explain=True))
        self.assertTrue(explained_moves[1].explanation.reason.startswith("speed"))
        bodies = await world.get_bodies(1, [2, 99])
        self.assertEqual(bodies, twin.get_bodies(1, [2, 99]))
        self.assertEqual(([b.id for b in bodies.bodies], bodies.missing), ([2], [99]))

        rays = [collide.RayCast(collide.Ray((0, 0, 1.7), (1, 0, 0)), ignore=[1, 2])]
        self.assertEqual(await world.query(ray_casts=rays), twin.query(ray_casts=rays))
        self.assertEqual((await world.cast_rays(rays))[0].hits[0].target, collide.Target("static", 2, 0))
        flat = [0, 0, 1.7, 1, 0, 0, math.inf]
        self.assertEqual(list((await world.cast_rays_packed(flat, ignore=[1])).distance),
                         list(twin.cast_rays_packed(flat, ignore=[1]).distance))

        async with world.stream() as stream:
            answer = await stream.tick(frame(2), shots=[collide.Shot(1, (0, 0, 1.7), (1, 0, 0), at=2,
                                                                             claimed=(2, 0))])
        self.assertEqual(answer.raise_for_error().shots[0].code, ShotCode.CONFIRMED)
        self.assertEqual((await world.info()).latest_tick, 2)

        await world.delete()
        with self.assertRaises(collide.CollideError) as ctx:
            await self.aio.get_world("py-aio")
        self.assertEqual((ctx.exception.code, ctx.exception.reason),
                         (collide.StatusCode.NOT_FOUND, collide.ErrorReason.WORLD_NOT_FOUND))

    async def test_invalid_request_carries_field_paths(self):
        world = await self.aio.create_world("py-aio-bad", [FLOOR])
        self.addCleanup(self.client.delete_world, "py-aio-bad")
        with self.assertRaises(collide.CollideError) as ctx:
            await world.push_frame(collide.Frame(1, [collide.Body(1, collide.Pose((0, 0, 0), (0, 0, 0, 0)))]))
        self.assertEqual(ctx.exception.code, collide.StatusCode.INVALID_ARGUMENT)
        self.assertIn("frame.bodies[0].pose.rotation", ctx.exception.fields)


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class AsyncRecreationTest(LiveClientFixture, unittest.IsolatedAsyncioTestCase):

    async def test_world_lost_by_a_restart_is_recreated(self):
        async with AsyncClient(self.server.target, timeout=30) as aio:
            lost = []
            world = await aio.create_world("py-aio-lost", [FLOOR, WALL], on_history_lost=lost.append)
            await world.push_frame(frame(1))
            self.server.restart()
            await aio.wait_ready(30)
            verdicts = await world.validate_shots(SHOTS)
            self.assertEqual([v.code for v in verdicts], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
            self.assertEqual((world.history_lost, lost), (1, [world]))
            await world.delete()


if __name__ == "__main__":
    unittest.main()
