"""Starts a collide-server on a free loopback port for a test, and stops it."""

import os
import re
import subprocess
import tempfile
import time

import collide

_LISTENING = re.compile(r"listening on 127\.0\.0\.1:(\d+)")


class LiveServer:
    """collide-server from $COLLIDE_SERVER on 127.0.0.1, port 0 (the server
    picks a free one and logs it). stop() sends SIGTERM (graceful) and kills
    it if it has not exited after 10 s."""

    def __init__(self, extra_args=(), startup_timeout=30.0, port=0):
        binary = os.environ.get("COLLIDE_SERVER")
        if not binary:
            raise RuntimeError("set COLLIDE_SERVER to the collide-server binary (ctest does)")
        self._args = list(extra_args)
        self._startup_timeout = startup_timeout
        self._log = tempfile.NamedTemporaryFile(prefix="collide-server-", suffix=".log", delete=False)
        self._process = subprocess.Popen(
            [binary, "--host=127.0.0.1", f"--port={port}", *extra_args],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + startup_timeout
        while True:
            with open(self._log.name, encoding="utf-8", errors="replace") as f:
                match = _LISTENING.search(f.read())
            if match:
                self.target = f"127.0.0.1:{match.group(1)}"
                return
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"collide-server did not start:\n{self.log()}")
            time.sleep(0.05)

    def restart(self) -> None:
        """Kills the server (SIGKILL: a replica that dies) and starts a new
        one on the same port: every world it held is lost."""
        self._process.kill()
        self._process.wait()
        self.stop()
        port = int(self.target.rsplit(":", 1)[1])
        self.__init__(self._args, self._startup_timeout, port)

    def log(self) -> str:
        with open(self._log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def stop(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._log.close()
        if os.path.exists(self._log.name):
            os.unlink(self._log.name)


class LiveClientFixture:
    """Mixed into a unittest.TestCase: a server for the class (LiveServer with
    server_args()) and a client of it, as cls.server and cls.client."""

    @classmethod
    def server_args(cls):
        return ()

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.server = LiveServer(cls.server_args())
        cls.client = collide.Client(cls.server.target, timeout=30)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.server.stop()
        super().tearDownClass()
