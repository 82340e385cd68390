#!/usr/bin/env bash
# python_package_test.sh SERVER_BIN: makes a virtual environment in a
# temporary folder with Debian's Python (--system-site-packages: grpcio and
# protobuf come from python3-grpcio and python3-protobuf), pip-installs
# client/python into it (--no-build-isolation with Debian's setuptools,
# --no-index: nothing from any package index; the build generates the stubs
# into the package), checks what was installed (stubs, py.typed, pydoc), and
# runs tests/consumers/python/shot.py from outside the checkout against a
# collide-server started on a free loopback port. Run by ctest as
# python_package.
set -euo pipefail
server_bin=$(realpath "$1")
source "$(dirname "$0")/workdir.sh" python-package

# A copy of the package and the protos it is built from, so that pip's
# in-tree build leaves the checkout alone.
mkdir -p "$work/repo/client"
cp -r "$root/client/python" "$work/repo/client/python"
rm -rf "$work/repo/client/python"/{build,*.egg-info}
cp -r "$root/proto" "$work/repo/proto"

/usr/bin/python3 -m venv --system-site-packages "$work/venv"
py=$work/venv/bin/python
"$py" -m pip install --quiet --no-build-isolation --no-index --disable-pip-version-check \
  "$work/repo/client/python" >"$work/pip.log" 2>&1 || { cat "$work/pip.log"; exit 1; }

cd "$work"  # nothing of the checkout on sys.path
"$py" - <<'PY'
import importlib.metadata, pathlib, sys
import collide, collide.codes, collide.v1.world_pb2, collide.health.v1.health_pb2_grpc, google.rpc.status_pb2
package = pathlib.Path(collide.__file__).parent
assert str(package).startswith(sys.prefix), f"collide imported from {package}, not the venv {sys.prefix}"
for f in ("py.typed", "v1/world_pb2.py", "v1/world_pb2.pyi", "v1/world_pb2_grpc.py", "health/v1/health_pb2.py"):
    assert (package / f).is_file(), f"{f} not installed"
meta = importlib.metadata.metadata("collide-client")
assert meta["Version"] == collide.__version__, (meta["Version"], collide.__version__)
assert meta["License"] == "Apache-2.0", meta["License"]
print(f"installed collide-client {meta['Version']} in {package}")
PY
# The docstrings render with pydoc.
"$py" -m pydoc collide.codes >"$work/pydoc-codes.txt"
grep -q "class ShotCode" "$work/pydoc-codes.txt" || { echo "pydoc collide.codes: no ShotCode" >&2; exit 1; }
"$py" -m pydoc collide.Client >"$work/pydoc-client.txt"
grep -q "create_world" "$work/pydoc-client.txt" || { echo "pydoc collide.Client: no create_world" >&2; exit 1; }

cp "$root/tests/consumers/python/shot.py" "$work/shot.py"
"$here/with_server.sh" "$server_bin" bash -c '"$1" shot.py "$COLLIDE_TARGET"' shot "$py"
