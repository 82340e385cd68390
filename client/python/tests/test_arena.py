"""examples/arena.py for one second (20 ticks) against a server holding
Debian's OpenArena maps: every shot and move gets one verdict, and some shots
are confirmed (the example aims at players in sight)."""

import os
import re
import subprocess
import sys
import unittest

from live_server import LiveServer

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "arena.py")


@unittest.skipUnless(os.environ.get("COLLIDE_SERVER"), "needs COLLIDE_SERVER")
class ArenaExampleTest(unittest.TestCase):
    def test_plays_and_counts_its_verdicts(self):
        server = LiveServer(["--maps_dir=/usr/share/games/openarena/baseoa"])
        try:
            run = subprocess.run([sys.executable, EXAMPLE, server.target, "--seconds=1"], capture_output=True,
                                 text=True, timeout=120, check=False)
        finally:
            server.stop()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

        def counts(kind):
            line = re.search(rf"^{kind}: (.*)$", run.stdout, re.M)
            self.assertIsNotNone(line, run.stdout)
            return {code: int(n) for code, n in re.findall(r"([A-Z_]+): (\d+)", line.group(1))}

        shots, moves = counts("shots"), counts("moves")
        self.assertEqual(sum(shots.values()), 2 * 20, run.stdout)
        self.assertGreater(shots.get("CONFIRMED", 0), 0, run.stdout)
        self.assertEqual(sum(moves.values()), 8 * 20, run.stdout)
        self.assertGreater(moves.get("OK", 0), 0, run.stdout)
        self.assertIn("triangles from pak6-patch088.pk3:aggressor", run.stdout)


if __name__ == "__main__":
    unittest.main()
