"""The Python wrapper: shape conversion and error decoding offline, then the
idiomatic calls against a live collide-server."""

import array
import math
import os
import unittest

import grpc
from google.rpc import error_details_pb2, status_pb2

import collide
from collide.errors import decode_field_violations
from collide.shapes import ray_to_proto, shape_to_proto
from collide.v1 import geometry_pb2
from live_server import LiveClientFixture


class ShapesTest(unittest.TestCase):
    def test_dataclass_and_dict_forms_agree(self):
        forms = [
            (collide.Sphere((1, 2, 3), 0.5), {"sphere": {"center": [1, 2, 3], "radius": 0.5}}),
            (collide.Obb((0, 0, 1), (1, 2, 3), rotation=(0, 1, 0, 0)),
             {"obb": {"center": {"z": 1}, "half_extents": [1, 2, 3], "rotation": [0, 1, 0, 0]}}),
            (collide.ConvexHull([(0, 0, 0), (1, 0, 0)]),
             {"convex_hull": {"vertices": [[0, 0, 0], {"x": 1}]}}),
            (collide.Halfspace((0, 0, 1), -2), {"halfspace": {"normal": [0, 0, 1], "offset": -2}}),
            (collide.Capsule((0, 0, 0), (0, 1, 0), 2), {"capsule": {"a": [0, 0, 0], "b": [0, 1, 0], "radius": 2}}),
        ]
        for dc, d in forms:
            with self.subTest(dc):
                self.assertEqual(shape_to_proto(dc), shape_to_proto(d))

    def test_every_dataclass_sets_its_oneof(self):
        shapes = [collide.Point((1, 2, 3)), collide.Segment((0, 0, 0), (1, 1, 1)),
                  collide.Sphere((0, 0, 0), 1), collide.Capsule((0, 0, 0), (1, 0, 0), 1),
                  collide.Aabb((0, 0, 0), (1, 1, 1)), collide.Obb((0, 0, 0), (1, 1, 1)),
                  collide.Triangle((0, 0, 0), (1, 0, 0), (0, 1, 0)),
                  collide.ConvexHull([(0, 0, 0)]), collide.Halfspace((0, 0, 1), 0)]
        kinds = [shape_to_proto(s).WhichOneof("shape") for s in shapes]
        self.assertEqual(kinds, ["point", "segment", "sphere", "capsule", "aabb", "obb",
                                 "triangle", "convex_hull", "halfspace"])
        self.assertFalse(shape_to_proto(collide.Obb((0, 0, 0), (1, 1, 1))).obb.HasField("rotation"))

    def test_unbounded_ray_leaves_max_distance_unset(self):
        self.assertFalse(ray_to_proto(collide.Ray((0, 0, 0), (1, 0, 0))).HasField("max_distance"))
        self.assertFalse(
            ray_to_proto(collide.Ray((0, 0, 0), (1, 0, 0), math.inf)).HasField("max_distance"))
        self.assertEqual(ray_to_proto(collide.Ray((0, 0, 0), (1, 0, 0), 2.5)).max_distance, 2.5)

    def test_not_a_shape(self):
        with self.assertRaises(TypeError):
            shape_to_proto((1, 2, 3))

    def test_decodes_bad_request_from_status_details(self):
        bad = error_details_pb2.BadRequest()
        bad.field_violations.add(field="pairs[3].b.capsule.radius", description="must be >= 0")
        bad.field_violations.add(field="level", description="must be set")
        status = status_pb2.Status(code=3, message="2 violations")
        status.details.add().Pack(bad)
        got = decode_field_violations(
            (("other", b"x"), ("grpc-status-details-bin", status.SerializeToString())))
        self.assertEqual([v.field for v in got], ["pairs[3].b.capsule.radius", "level"])
        self.assertEqual(got[0].description, "must be >= 0")
        self.assertEqual(decode_field_violations(()), [])


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class LiveClientTest(LiveClientFixture, unittest.TestCase):
    def test_health_and_info(self):
        self.assertEqual(self.client.health(), "SERVING")
        info = self.client.server_info()
        self.assertTrue(info.version)
        self.assertGreater(info.max_items_per_request, 0)

    def test_contact_between_spheres(self):
        [r] = self.client.query_pairs("contact", [(collide.Sphere((0, 0, 0), 1),
                                                   collide.Sphere((1.5, 0, 0), 1))])
        self.assertTrue(r.hit)
        self.assertAlmostEqual(r.distance, -0.5, places=12)
        self.assertEqual(r.normal, (1.0, 0.0, 0.0))
        self.assertEqual(r.status, "RESULT_STATUS_OK")

    def test_packed_from_any_iterable_keeps_order(self):
        spheres = array.array("d", [0, 0, 0, 1, 10, 0, 0, 1])
        points = (float(v) for v in [0.5, 0, 0, 13, 0, 0])
        r = self.client.query_pairs_packed("DISTANCE", "sphere", spheres, points, kind_b="point")
        self.assertEqual(r.hit, [True, False])
        self.assertEqual(len(r), 2)
        self.assertAlmostEqual(r.distance[1], 2.0, places=12)
        self.assertEqual(r.point_b[3:6], [13.0, 0.0, 0.0])

    def test_rays(self):
        [h] = self.client.cast_rays([(collide.Ray((-5, 0, 0), (2, 0, 0)),
                                      collide.Aabb((-1, -1, -1), (1, 1, 1)))])
        self.assertTrue(h.hit)
        self.assertAlmostEqual(h.distance, 4.0, places=12)
        self.assertEqual(h.normal, (-1.0, 0.0, 0.0))
        packed = self.client.cast_rays_packed("sphere", [-5, 0, 0, 1, 0, 0, math.inf],
                                              [0, 0, 0, 1])
        self.assertEqual(packed.hit, [True])
        self.assertAlmostEqual(packed.distance[0], 4.0, places=12)

    def test_invalid_argument_lists_every_violation(self):
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.query_pairs("contact", [
                (collide.Sphere((0, 0, 0), -1), collide.Point((0, 0, 0))),
                (collide.Point((0, 0, 0)), collide.Capsule((0, 0, 0), (1, 0, 0), float("nan")))])
        self.assertEqual(ctx.exception.code, grpc.StatusCode.INVALID_ARGUMENT)
        self.assertEqual(sorted(ctx.exception.fields),
                         ["pairs[0].a.sphere.radius", "pairs[1].b.capsule.radius"])

    def test_unimplemented_pair(self):
        with self.assertRaises(collide.CollideError) as ctx:
            self.client.query_pairs("intersect", [(collide.Halfspace((0, 0, 1), 0),
                                                   collide.Halfspace((1, 0, 0), 0))])
        self.assertEqual(ctx.exception.code, grpc.StatusCode.UNIMPLEMENTED)

    def test_gzip_requests_are_refused_naming_the_accepted_encoding(self):
        # The server does not inflate requests (docs/operations.md, "Security") and so does
        # not advertise gzip: every RPC refuses a gzip-compressed message with
        # UNIMPLEMENTED naming the accepted encoding, as the gRPC compression
        # spec says.
        channel = grpc.insecure_channel(self.server.target, compression=grpc.Compression.Gzip)
        gzip_client = collide.Client(channel=channel, timeout=30)
        sphere = collide.Sphere((0, 0, 0), 1)
        # gRPC's C core sends a message as is when gzip would not shrink it
        # (and the server serves it: it is not compressed), so the readable
        # request repeats its pair until gzip pays.
        calls = {
            "QueryPairs": lambda: gzip_client.query_pairs("contact", [(sphere, sphere)] * 50),
            "QueryPairsPacked": lambda: gzip_client.query_pairs_packed("DISTANCE", "sphere", [0, 0, 0, 1],
                                                                       [0, 0, 0, 1]),
            "CastRays": lambda: gzip_client.cast_rays([(collide.Ray((-5, 0, 0), (1, 0, 0)), sphere)] * 50),
            "CastRaysPacked": lambda: gzip_client.cast_rays_packed("sphere", [-5, 0, 0, 1, 0, 0, 9],
                                                                   [0, 0, 0, 1]),
        }
        try:
            for name, call in calls.items():
                with self.subTest(name), self.assertRaises(collide.CollideError) as ctx:
                    call()
                self.assertEqual(ctx.exception.code, grpc.StatusCode.UNIMPLEMENTED)
                self.assertIn("compressed with gzip; this server accepts grpc-encoding identity", str(ctx.exception))
            # GetServerInfo's empty request is one of those sent as is: served.
            self.assertGreater(gzip_client.server_info().max_items_per_request, 0)
        finally:
            gzip_client.close()
        # Uncompressed calls are served as before.
        self.assertEqual(self.client.server_info().max_items_per_request > 0, True)

    def test_proto_messages_pass_through(self):
        shape = geometry_pb2.Shape(point=geometry_pb2.Point())
        [r] = self.client.query_pairs("intersect", [(shape, shape)])
        self.assertTrue(r.hit)


if __name__ == "__main__":
    unittest.main()
