#!/usr/bin/env bash
# Installs the Debian packages collide needs. Run as root on Debian bookworm.
# Idempotent: packages already present are skipped by apt.
#
# Usage: scripts/install-deps.sh            everything: build, tests, benchmarks, other-language
#                                           clients, sanitizers, fuzzers, container test (scripts/test.sh)
#        scripts/install-deps.sh --server   only what building and running collide-server and the
#                                           collide CLI needs (scripts/start.sh, which configures with
#                                           tests, benchmarks and other clients off)
set -euo pipefail

# collide-server and the collide CLI: the compiler and build tools, gRPC and protobuf, Abseil,
# spdlog, JSON for the CLI, OpenSSL (token digests), and the map importers (assimp for
# glTF/GLB/OBJ, zlib for .pk3 archives).
SERVER_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libgrpc++-dev libgrpc-dev protobuf-compiler protobuf-compiler-grpc libprotobuf-dev
  libabsl-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libssl-dev
  libassimp-dev zlib1g-dev
)
# Added by the full profile.
TEST_PACKAGES=(
  git ca-certificates ccache
  libgtest-dev libgmock-dev libbenchmark-dev
  libfcl-dev libccd-dev libeigen3-dev libbullet-dev
  libgmp-dev  # exact rational references in tests (ray/triangle near-parallel classes)
  # Embree 3 as the mesh ray benchmark's peer, and real Quake 3 level geometry (OpenArena's
  # pk3 files) for the import, mesh and world tests and benchmarks.
  libembree-dev openarena-088-data
  python3-grpcio python3-protobuf python3-yaml
  python3-numpy python3-mypy  # the Python client's packed world calls take numpy arrays; its type hints are checked by mypy
  haproxy  # the shared pool's proxy (deploy/haproxy), run by tests/scale/proxy_*_test and the manifests test
  python3-prometheus-client  # parses collide-server's /metrics in tests/server/metrics_test.py
  # The Python package test (tests/packaging/python_package_test.sh): a venv, pip, and the
  # setuptools build backend used with --no-build-isolation.
  python3-venv python3-pip python3-setuptools python3-wheel
  openssl  # tests/security make a throwaway CA and certificates at test time
  # Go client (client/go), built offline from Debian's Go sources.
  golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-google-genproto-dev
  golang-github-golang-protobuf-1-5-dev  # grpc-go 1.33 marshals through it; 1.3 predates protoc-gen-go 1.28
  protoc-gen-go protoc-gen-go-grpc
  # Node.js client (client/node) and the match viewer's page (client/viewer: three.js bundled
  # by esbuild); their npm packages come from the lockfiles below.
  nodejs
  chromium  # the viewer's test loads its page headless (tests/viewer/)
  # Sanitizer and fuzzer builds (scripts/sanitize.sh, scripts/fuzz.sh): clang and its runtimes.
  clang libclang-rt-14-dev
  # The container test (scripts/container-test.sh): a Docker engine, and debootstrap to make
  # the Debian base image locally when no registry is reachable.
  docker.io debootstrap
)

case "${1:-}" in
  --server) PACKAGES=("${SERVER_PACKAGES[@]}") ;;
  "") PACKAGES=("${SERVER_PACKAGES[@]}" "${TEST_PACKAGES[@]}") ;;
  *) echo "install-deps.sh: unknown argument $1 (--server or nothing)" >&2; exit 2 ;;
esac
FULL=$(( $# == 0 ))

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Some Node.js builds ship npm inside the nodejs package; Debian's ships it apart.
((FULL)) && ! command -v npm >/dev/null 2>&1 && missing+=(npm)
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
((FULL)) || exit 0

# The npm packages of the Node.js client and of the viewer's page, exactly as
# their package-lock.json pins them; skipped when node_modules already matches
# the lockfile.
for node_dir in "$(dirname "$0")/../client/node" "$(dirname "$0")/../client/viewer"; do
  stamp="$node_dir/node_modules/.collide-lockfile"
  if ! cmp -s "$node_dir/package-lock.json" "$stamp"; then
    echo "install-deps: npm ci in ${node_dir#*/../}"
    (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$node_dir/package-lock.json" "$stamp"
  fi
done

# The Go client's vendor/ from the Debian Go sources installed above
# (client/go/vendor.py; the build refreshes it too): the module then builds
# offline with -mod=vendor.
echo "install-deps: vendoring Debian's Go sources into client/go/vendor"
/usr/bin/python3 "$(dirname "$0")/../client/go/vendor.py"
