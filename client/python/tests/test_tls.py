"""The client's TLS and token options against a collide-server started with
mutual TLS and a bearer token (--tls_cert_file, --tls_key_file,
--tls_client_ca_file, --auth_token_file) on 127.0.0.1, with certificates made
by tests/support/test_pki.sh at test time: the blocking client, its Tick
stream and the asyncio client judge shots with the right CA, client
certificate and token; without the token the call is UNAUTHENTICATED; with
another CA, without a client certificate or over plaintext it never reaches
the server (UNAVAILABLE)."""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import grpc

import collide
from collide import CollideError, ShotCode
from collide.aio import AsyncClient
from live_server import LiveServer

PKI_SCRIPT = Path(__file__).resolve().parents[3] / "tests/support/test_pki.sh"
TOKEN = "s3cret-token-for-tests"
HEAD = collide.Part(0, collide.Sphere((0, 0, 0), 0.2), local=collide.Pose((0, 0, 1.7)))
WALL = collide.StaticShape(2, collide.Aabb((4, -3, 0), (4.5, 3, 3)))
FRAME = collide.Frame(1, [collide.Body(i + 1, collide.Pose((x, y, 0)), parts=[HEAD])
                          for i, (x, y) in enumerate([(0, 0), (2, 0), (6, 2)])])
SHOTS = [collide.Shot(1, (0, 0, 1.7), (1, 0, 0), at=1, claimed=(2, 0)),   # in the open
         collide.Shot(1, (0, 0, 1.7), (6, 2, 0), at=1, claimed=(3, 0))]   # through the wall


class TlsServer:
    """Mixed into a TestCase: the PKI and the server for the class."""

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="collide-pki-")
        subprocess.run(["bash", str(PKI_SCRIPT), cls.pki], check=True)
        tokens = Path(cls.pki) / "tokens"
        tokens.write_text(f"# test token\n{TOKEN}\n")
        cls.server = LiveServer([f"--tls_cert_file={cls.path('server.pem')}",
                                 f"--tls_key_file={cls.path('server.key')}",
                                 f"--tls_client_ca_file={cls.path('ca.pem')}",
                                 f"--auth_token_file={tokens}"])

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.pki, ignore_errors=True)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.pki, name)


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER") and shutil.which("openssl"),
                     "needs COLLIDE_SERVER and openssl")
class TlsAndTokenTest(TlsServer, unittest.TestCase):

    def client(self, **overrides):
        options = dict(tls_ca_file=self.path("ca.pem"), tls_cert_file=self.path("client.pem"),
                       tls_key_file=self.path("client.key"), token=TOKEN, timeout=10, max_attempts=1)
        options.update(overrides)
        return collide.Client(self.server.target, **options)

    def test_shots_over_mutual_tls_with_the_token(self):
        self.assertIn("mutual TLS", self.server.log())
        with self.client() as c:
            self.assertEqual(c.server_info().version, collide.__version__)
            world = c.create_world("tls-sync", [WALL])
            world.push_frame(FRAME)
            self.assertEqual([v.code for v in world.validate_shots(SHOTS)], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
            with world.stream() as s:   # the Tick stream carries the token too
                answer = s.tick(shots=SHOTS).raise_for_error()
            self.assertEqual([v.code for v in answer.shots], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
            world.delete()

    def test_the_server_name_override(self):
        # "localhost" is in the certificate; a name that is not fails the handshake.
        with self.client(tls_server_name="localhost") as c:
            self.assertEqual(c.health(), "SERVING")
        with self.client(tls_server_name="not-in-the-certificate") as c:
            with self.assertRaises(CollideError) as e:
                c.server_info()
            self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)

    def test_without_the_token_or_with_another_it_is_unauthenticated(self):
        for token in (None, "wrong-token"):
            with self.subTest(token=token), self.client(token=token) as c:
                with self.assertRaises(CollideError) as e:
                    c.create_world("tls-no-token", [WALL])
                self.assertEqual(e.exception.code, grpc.StatusCode.UNAUTHENTICATED)

    def test_another_ca_no_client_certificate_or_plaintext_never_reach_the_server(self):
        cases = {"another CA": dict(tls_ca_file=self.path("other_ca.pem")),
                 "no client certificate": dict(tls_cert_file=None, tls_key_file=None),
                 "plaintext": dict(tls_ca_file=None, tls_cert_file=None, tls_key_file=None)}
        for name, overrides in cases.items():
            with self.subTest(name), self.client(**overrides) as c:
                with self.assertRaises(CollideError) as e:
                    c.server_info()
                self.assertEqual(e.exception.code, grpc.StatusCode.UNAVAILABLE)

    def test_a_certificate_without_its_key_is_refused(self):
        with self.assertRaises(ValueError):
            collide.Client(self.server.target, tls_cert_file=self.path("client.pem"))


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER") and shutil.which("openssl"),
                     "needs COLLIDE_SERVER and openssl")
class AsyncTlsAndTokenTest(TlsServer, unittest.IsolatedAsyncioTestCase):

    async def test_shots_over_mutual_tls_with_the_token(self):
        async with AsyncClient(self.server.target, tls_ca_file=self.path("ca.pem"),
                               tls_cert_file=self.path("client.pem"), tls_key_file=self.path("client.key"),
                               token=TOKEN, timeout=10) as c:
            self.assertEqual((await c.server_info()).version, collide.__version__)
            world = await c.create_world("tls-aio", [WALL])
            await world.push_frame(FRAME)
            verdicts = await world.validate_shots(SHOTS)
            self.assertEqual([v.code for v in verdicts], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
            async with world.stream() as s:   # its own aio stream, on the client's channel
                answer = (await s.tick(shots=SHOTS)).raise_for_error()
            self.assertEqual([v.code for v in answer.shots], [ShotCode.CONFIRMED, ShotCode.BLOCKED])
            await world.delete()
        async with AsyncClient(self.server.target, tls_ca_file=self.path("ca.pem"),
                               tls_cert_file=self.path("client.pem"), tls_key_file=self.path("client.key"),
                               timeout=10, max_attempts=1) as c:
            with self.assertRaises(CollideError) as e:
                await c.server_info()
            self.assertEqual(e.exception.code, grpc.StatusCode.UNAUTHENTICATED)
