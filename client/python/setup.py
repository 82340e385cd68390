"""Build of the collide-client package (metadata: pyproject.toml).

The protobuf and gRPC stubs are not committed: building the package runs
protoc on the repository's proto/ (or $COLLIDE_PROTO_DIR) and writes them into
the build, inside the package: collide/v1/*_pb2*.py(i), collide/health/v1/
(grpc.health.v1, compiled under collide/ because `grpc` is grpcio's own
package) and google/rpc/ (google.rpc.Status and its details, which Debian's
protobuf does not ship). Needs protoc and grpc_python_plugin on PATH, or
$PROTOC and $GRPC_PYTHON_PLUGIN (Debian: protobuf-compiler,
protobuf-compiler-grpc)."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
MESSAGES = ["collide/v1/geometry.proto", "collide/v1/collide.proto", "collide/v1/world.proto",
            "google/rpc/status.proto", "google/rpc/error_details.proto"]
HEALTH = "grpc/health/v1/health.proto"


def _tool(variable: str, name: str) -> str:
    found = os.environ.get(variable) or shutil.which(name)
    if not found:
        raise RuntimeError(f"collide-client's build needs {name} (set ${variable} or put it on PATH; "
                           "Debian: protobuf-compiler, protobuf-compiler-grpc)")
    return found


def generate_stubs(out: Path) -> None:
    """Writes the stubs of MESSAGES and of grpc.health.v1 (as collide.health.v1) under out."""
    proto_dir = Path(os.environ.get("COLLIDE_PROTO_DIR", HERE.parent.parent / "proto"))
    if not (proto_dir / MESSAGES[1]).is_file():
        raise RuntimeError(f"no {MESSAGES[1]} under {proto_dir}: build from the repository, or set "
                           "$COLLIDE_PROTO_DIR to its proto/ folder")
    protoc = _tool("PROTOC", "protoc")
    plugin = f"--plugin=protoc-gen-grpc_python={_tool('GRPC_PYTHON_PLUGIN', 'grpc_python_plugin')}"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([protoc, f"-I{proto_dir}", f"--python_out={out}", f"--pyi_out={out}",
                    f"--grpc_python_out={out}", plugin, *MESSAGES], check=True)
    with tempfile.TemporaryDirectory() as health_root:
        target = Path(health_root) / "collide/health/v1"
        target.mkdir(parents=True)
        shutil.copy(proto_dir / HEALTH, target / "health.proto")
        subprocess.run([protoc, f"-I{health_root}", f"--python_out={out}", f"--grpc_python_out={out}", plugin,
                        "collide/health/v1/health.proto"], check=True)
    # Regular packages under collide/ (google/ stays a namespace package,
    # shared with protobuf's google.protobuf).
    for package in ("collide/v1", "collide/health", "collide/health/v1"):
        (out / package / "__init__.py").touch()


class BuildPyWithStubs(build_py):
    """build_py, then the generated stubs into the build's package tree."""

    def run(self) -> None:
        super().run()
        generate_stubs(Path(self.build_lib))


setup(cmdclass={"build_py": BuildPyWithStubs})
