"""The Tick stream from Python (collide.stream) on a live collide-server:
lock-step and pipelined, every part against the unary calls, per-message
errors, re-creation of a lost world, a server restart, and asyncio."""

import asyncio
import math
import os
import unittest

import grpc

import collide
from live_server import LiveServer
from test_world import FLOOR, WALL, WorldFixture, player


def shots():
    return [collide.Shot(1, (0, 0, 1.7), (1, 0, 0), claimed=(2, 0)),
            collide.Shot(1, (0, 0, 1.2), (1, 0.01, 0), claimed=(2, 0), tolerance=0.05),
            collide.Shot(1, (0, 0, 1.95), (1, 0, 0), at=(1, 0.5))]


PACKED = {"doubles": [0, 0, 1.7, 1, 0, 0, math.inf, 0, 0, 0], "shooter_ids": [1], "ticks": [collide.LATEST_TICK],
          "claimed_body_ids": [2], "claimed_part_ids": [0]}
RAYS = [-1, 0, 1.2, 1, 0, 0, math.inf, 8, -7, 5, 0, 0, -1, 100]


def moves():
    return [collide.Move(2, (4.4, 0, 0), 0.5), collide.Move(2, (4.4, 0.9, 0), 0.5, slide=True),
            collide.Move(1, (0.2, 0, 0), 0.1)]


def frames():
    return [collide.Frame(1, [player(1, 0), player(2, 2, -1)]),
            collide.Frame(3, [collide.Body(2, collide.Pose((2, 0, 0)))])]


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class StreamTest(WorldFixture, unittest.TestCase):

    def test_every_part_answers_as_the_unary_calls(self):
        unary, streamed = self.arena("py-st-unary"), self.arena("py-st-parts")
        for f in frames():
            unary.push_frame(f)
        query = {"ray_casts": [collide.RayCast(collide.Ray((-1, 0, 1.2), (1, 0, 0)), mode="all")],
                 "shape_casts": [collide.ShapeCast(collide.Sphere((-1, 0, 1.2), 0.3), (10, 0, 0), ignore=[1])],
                 "overlaps": [collide.Overlap(collide.Sphere((2, 0, 1.2), 0.5), level="contact")]}
        with streamed.stream() as s:
            first = s.tick(frames()[0])
            self.assertEqual((first.sequence, first.oldest_tick, first.error, first.shots), (1, 1, None, None))
            a = s.tick(frames()[1], rays=RAYS, rays_ignore=[1], shots=shots(), shots_packed=PACKED, moves=moves(),
                       **query)
        self.assertIsNone(a.error)
        self.assertEqual((a.sequence, a.oldest_tick, a.recreated), (2, 1, False))
        self.assertEqual(a.query, unary.query(**query))
        self.assertEqual(a.rays_packed, unary.cast_rays_packed(RAYS, ignore=[1]))
        self.assertEqual(a.shots, unary.validate_shots(shots()))
        self.assertEqual([v.code for v in a.shots], ["CONFIRMED", "HIT_OTHER_PART", "BLOCKED"])
        self.assertEqual(a.shots_packed, unary.validate_shots_packed(**PACKED))
        self.assertEqual(a.moves, unary.validate_moves(moves()))
        self.assertEqual(streamed.state_frame(), unary.state_frame())

    def test_pipelined_messages_are_answered_in_order(self):
        world = self.arena("py-st-pipe", history_ticks=4)
        with world.stream() as s:
            sent = [s.send(collide.Frame(t, [player(1, 0), player(2, 2, 0.01 * t)] if t == 1 else
                                         [collide.Body(2, collide.Pose((2, 0.01 * t, 0)))]), shots=shots()[:1])
                    for t in range(1, 9)]
            answers = list(s)
        self.assertEqual(sent, list(range(1, 9)))
        self.assertEqual([a.sequence for a in answers], sent)
        self.assertEqual([a.oldest_tick for a in answers], [1, 1, 1, 1, 2, 3, 4, 5])
        self.assertEqual({a.shots[0].code for a in answers}, {"CONFIRMED"})
        self.assertEqual(world.state_frame().tick, 8)

    def test_an_error_ends_its_message_only(self):
        world = self.arena("py-st-errors")
        with world.stream() as s:
            s.tick(frames()[0]).raise_for_error()
            bad = s.tick(collide.Frame(2), shots=[collide.Shot(1, (0, 0, 1.7), (0, 0, 0))], moves=moves(),
                         all_or_nothing=True)
            self.assertEqual(bad.error.code, grpc.StatusCode.INVALID_ARGUMENT)
            self.assertEqual(bad.error.fields, ["shots.shots[0].direction"])
            # The frame before the failing part was applied; the moves after it did not run.
            self.assertEqual((bad.oldest_tick, bad.shots, bad.moves), (1, None, None))
            with self.assertRaises(collide.CollideError):
                bad.raise_for_error()
            stale = s.tick(collide.Frame(2))
            self.assertEqual(stale.error.code, grpc.StatusCode.FAILED_PRECONDITION)
            # Per item (the default), the bad shot is an INVALID verdict and the moves run.
            each = s.tick(collide.Frame(3), shots=[collide.Shot(1, (0, 0, 1.7), (0, 0, 0))], moves=moves())
            self.assertEqual(each.shots[0].code, "INVALID")
            self.assertEqual(each.shots[0].violations[0][0], "direction")
            self.assertEqual(each.moves[0].code, "BLOCKED")
        self.assertEqual(world.info().latest_tick, 3)

    def test_a_lost_world_is_recreated_and_the_message_resent(self):
        lost = []
        world = self.arena("py-st-lost", on_history_lost=lost.append)
        fragile = self.arena("py-st-fragile", recreate=False)
        with world.stream() as s, fragile.stream() as f:
            for frame in frames():
                s.tick(frame).raise_for_error()
                f.tick(frame).raise_for_error()
            self.client.delete_world("py-st-lost")
            self.client.delete_world("py-st-fragile")
            a = s.tick(collide.Frame(4), shots=shots()[:1])
            self.assertIsNone(a.error)
            self.assertEqual((a.recreated, a.oldest_tick, a.shots[0].code), (True, 3, "CONFIRMED"))
            self.assertEqual((lost, world.history_lost), ([world], 1))
            self.assertFalse(s.tick(collide.Frame(5)).recreated)
            gone = f.tick(collide.Frame(4))
            self.assertEqual((gone.error.code, gone.error.reason), (grpc.StatusCode.NOT_FOUND, "WORLD_NOT_FOUND"))
        info = world.info()
        self.assertEqual((info.oldest_tick, info.latest_tick, info.bodies), (3, 5, 2))

    def test_messages_in_flight_when_the_world_is_lost_wait_for_its_restoration(self):
        held = []
        world = self.arena("py-st-in-flight",
                           on_history_lost=lambda w: held.append(s.send(collide.Frame(5), shots=shots()[:1])))
        with world.stream() as s:
            for frame in frames():
                s.tick(frame).raise_for_error()
            before = s.tick(shots=shots()[:1]).shots[0]
            self.assertEqual(before.code, "CONFIRMED")
            self.assertIsNotNone(before.first_hit)
            self.client.delete_world("py-st-in-flight")
            sent = [s.send(shots=shots()[:1]), s.send(collide.Frame(4), shots=shots()[:1])]
            # The message sent from the callback (while the world is restored) is held until both lost
            # ones went again: sent first, its frame 5 would make frame 4 FAILED_PRECONDITION.
            answers = list(s)
        self.assertEqual([a.sequence for a in answers], sent + held)
        self.assertEqual([(a.error, a.recreated) for a in answers], [(None, True), (None, True), (None, False)])
        self.assertEqual([a.oldest_tick for a in answers], [None, 3, 3])
        for a in answers:
            self.assertEqual((a.shots[0].code, a.shots[0].first_hit), (before.code, before.first_hit))
        self.assertEqual((world.history_lost, world.info().latest_tick), (1, 5))

    def test_asyncio_stream(self):
        world = self.arena("py-st-async")

        async def play():
            async with world.stream_async() as s:
                first = await s.tick(frames()[0])
                await s.send(frames()[1], shots=shots(), moves=moves())
                await s.send(shots=shots()[:1])
                rest = [a async for a in s]
                self.client.delete_world("py-st-async")
                # Two messages in flight find the world missing: both go again once it is restored.
                await s.send(shots=shots()[:1])
                await s.send(collide.Frame(4), shots=shots()[:1])
                again = [a async for a in s]
                return first, rest, again

        first, rest, again = asyncio.run(play())
        self.assertEqual(first.oldest_tick, 1)
        self.assertEqual([a.sequence for a in rest], [2, 3])
        self.assertEqual([v.code for v in rest[0].shots], ["CONFIRMED", "HIT_OTHER_PART", "BLOCKED"])
        self.assertEqual(rest[1].shots[0].code, "CONFIRMED")
        self.assertEqual([(a.sequence, a.error, a.recreated, a.oldest_tick) for a in again],
                         [(4, None, True, None), (5, None, True, 3)])
        self.assertEqual([a.shots[0].first_hit for a in again], [rest[1].shots[0].first_hit] * 2)
        self.assertEqual(world.history_lost, 1)


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class StreamRestartTest(unittest.TestCase):
    def test_a_server_restart_ends_the_stream_and_a_new_one_recreates_the_world(self):
        server = LiveServer()
        self.addCleanup(server.stop)
        client = collide.Client(server.target, timeout=30)
        self.addCleanup(client.close)
        world = client.create_world("py-st-restart", [FLOOR, WALL])
        s = world.stream()
        for frame in frames():
            s.tick(frame).raise_for_error()
        server.restart()
        with self.assertRaises(collide.CollideError) as ctx:
            s.tick(collide.Frame(4))
        self.assertEqual(ctx.exception.code, grpc.StatusCode.UNAVAILABLE)
        client.wait_ready(30)
        with world.stream() as again:
            a = again.tick(collide.Frame(4), shots=shots()[:1])
        self.assertEqual((a.recreated, a.oldest_tick, a.shots[0].code), (True, 3, "CONFIRMED"))
        self.assertEqual(world.history_lost, 1)


if __name__ == "__main__":
    unittest.main()
