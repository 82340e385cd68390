"""One version for the project: the top-level CMakeLists.txt's
project(collide VERSION X.Y.Z) is what every package manifest, the CHANGELOG,
`collide-server --version`, `collide --version` and GetServerInfo (through
`collide info`) say, and every manifest names the Apache-2.0 licence that
LICENSE holds.

Run by ctest as package_versions under with_server.sh (COLLIDE_TARGET: a live
server), with COLLIDE_SERVER and COLLIDE_CLI naming the binaries; without
them the binary checks are skipped."""

import json
import os
import re
import subprocess
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"^project\(collide VERSION (\S+)", text, re.M)
    if not match:
        raise AssertionError("no project(collide VERSION ...) in CMakeLists.txt")
    return match.group(1)


def only_match(pattern: str, path: Path) -> str:
    matches = re.findall(pattern, path.read_text(), re.M)
    if len(matches) != 1:
        raise AssertionError(f"{path}: expected one match of {pattern!r}, found {matches}")
    return matches[0]


class ManifestsTest(unittest.TestCase):
    def setUp(self):
        self.version = project_version()

    def test_version_is_semver(self):
        self.assertRegex(self.version, SEMVER)

    def test_licence_is_apache_2(self):
        text = (ROOT / "LICENSE").read_text()
        self.assertIn("Apache License", text)
        self.assertIn("Version 2.0, January 2004", text)
        self.assertIn("END OF TERMS AND CONDITIONS", text)
        self.assertTrue((ROOT / "NOTICE").is_file())

    def test_node_package(self):
        package = json.loads((ROOT / "client/node/package.json").read_text())
        self.assertEqual(package["version"], self.version)
        self.assertEqual(package["license"], "Apache-2.0")
        self.assertFalse(package.get("private", False), "an npm package to publish is not private")
        lock = json.loads((ROOT / "client/node/package-lock.json").read_text())
        self.assertEqual(lock["version"], self.version)
        self.assertEqual(lock["packages"][""]["version"], self.version)
        self.assertEqual(lock["packages"][""]["license"], "Apache-2.0")

    def test_python_package(self):
        self.assertEqual(
            only_match(r'^__version__ = "([^"]+)"$', ROOT / "client/python/collide/_version.py"), self.version)
        pyproject = ROOT / "client/python/pyproject.toml"
        self.assertEqual(only_match(r'^license = \{text = "([^"]+)"\}$', pyproject), "Apache-2.0")
        self.assertEqual(only_match(r'^version = \{attr = "([^"]+)"\}$', pyproject),
                         "collide._version.__version__")

    def test_go_module(self):
        self.assertEqual(
            only_match(r'^const Version = "([^"]+)"$', ROOT / "client/go/collide/version.go"), self.version)
        # The module path go.mod declares is the one the docs state and the
        # protos' go_package and the consumer's require use.
        path = only_match(r"^module (\S+)$", ROOT / "client/go/go.mod")
        self.assertEqual(path, "github.com/collide-dev/collide/client/go")
        self.assertIn(f"`{path}`", (ROOT / "docs/clients.md").read_text())
        for proto in ("geometry", "collide", "world"):
            self.assertEqual(only_match(r'^option go_package = "([^";]+);',
                                        ROOT / f"proto/collide/v1/{proto}.proto"), f"{path}/gen/collide/v1")
        self.assertEqual(only_match(r"^require (\S+ \S+)$", ROOT / "tests/consumers/go/go.mod"),
                         f"{path} v{self.version}")

    def test_changelog_has_this_version(self):
        self.assertRegex((ROOT / "CHANGELOG.md").read_text(), rf"(?m)^## \[{re.escape(self.version)}\] - ")


# ctest's package_versions sets all three (tests/CMakeLists.txt, with_server.sh
# starting the server); the skip only explains a bare run, which has no server.
@unittest.skipUnless(all(os.environ.get(v) for v in ("COLLIDE_SERVER", "COLLIDE_CLI", "COLLIDE_TARGET")),
                     "set COLLIDE_SERVER, COLLIDE_CLI and COLLIDE_TARGET (ctest does)")
class BinariesTest(unittest.TestCase):
    def setUp(self):
        self.version = project_version()

    def version_of(self, binary: str) -> str:
        done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_server_version(self):
        self.assertEqual(self.version_of(os.environ["COLLIDE_SERVER"]), f"collide-server {self.version}\n")

    def test_cli_version(self):
        self.assertEqual(self.version_of(os.environ["COLLIDE_CLI"]), f"collide {self.version}\n")

    def test_server_info_version(self):
        # GetServerInfo.version, read by `collide info` from the live server.
        done = subprocess.run([os.environ["COLLIDE_CLI"], f"--target={os.environ['COLLIDE_TARGET']}", "info"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, rf"(?m)^version: +{re.escape(self.version)}$")


if __name__ == "__main__":
    unittest.main()
