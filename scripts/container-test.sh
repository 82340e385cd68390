#!/usr/bin/env bash
# Builds the real image from docker/Dockerfile, runs it hardened (read-only
# root, no capabilities, no new privileges), and checks it from outside:
# health, queries with the CLI and the Python client, non-root user,
# read-only filesystem, the image's own HEALTHCHECK, and that `docker stop`
# makes the server drain and exit 0. Loopback only (--network host, server on
# 127.0.0.1). Starts a Docker engine and imports a Debian base image when the
# machine has none (see ../shared/docs/containers.md), and stops what it
# started.
# Usage: scripts/container-test.sh [BUILD_DIR]   (BUILD_DIR holds the host CLI)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-${BUILD_DIR:-build}}"
IMAGE=collide-server:test
CLI="$BUILD_DIR/client/collide"
PY=/usr/bin/python3
passed=0
failed=0
container=""
dockerd_pid=""
workdir="$(mktemp -d)"

check() {  # check NAME COMMAND...
  local name="$1"; shift
  if "$@" >"$workdir/out" 2>&1; then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; sed 's/^/    /' "$workdir/out" | tail -20; failed=$((failed + 1))
  fi
}

cleanup() {
  [[ -n "$container" ]] && docker rm -f "$container" >/dev/null 2>&1
  if [[ -n "$dockerd_pid" ]]; then kill "$dockerd_pid" 2>/dev/null; wait "$dockerd_pid" 2>/dev/null; fi
  rm -rf "$workdir"
}
trap cleanup EXIT

# 1. Engine.
if ! docker info >/dev/null 2>&1; then
  echo "container-test: starting dockerd (--bridge=none: containers use the host's loopback)"
  dockerd --bridge=none --iptables=false >"$workdir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "FAIL dockerd did not start"; tail "$workdir/dockerd.log"; exit 1; }
fi

# 2. Base image without a registry.
if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
  echo "container-test: importing a debootstrap'ed Debian bookworm as debian:bookworm-slim"
  debootstrap --variant=minbase bookworm "$workdir/rootfs" >"$workdir/debootstrap.log" 2>&1 \
    || { echo "FAIL debootstrap"; tail "$workdir/debootstrap.log"; exit 1; }
  tar -C "$workdir/rootfs" -c . | docker import - debian:bookworm-slim >/dev/null
  rm -rf "$workdir/rootfs"
fi
docker image inspect debian:bookworm >/dev/null 2>&1 || docker tag debian:bookworm-slim debian:bookworm

# 3. The unchanged Dockerfile.
echo "container-test: docker build (builds and unit-tests the project inside)"
if ! docker build --network host -f docker/Dockerfile -t "$IMAGE" . >"$workdir/build.log" 2>&1; then
  echo "FAIL docker build"; tail -40 "$workdir/build.log"; echo "0 passed, 1 failed"; exit 1
fi
size=$(docker image inspect "$IMAGE" --format '{{.Size}}')
echo "container-test: image size $((size / 1024 / 1024)) MiB"

# 4. Run hardened on a free loopback port.
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
container=$(docker run -d --network host --read-only --cap-drop ALL --security-opt no-new-privileges \
  -e COLLIDE_HOST=127.0.0.1 -e COLLIDE_PORT="$port" "$IMAGE")
target="127.0.0.1:$port"
for _ in $(seq 50); do "$CLI" health --target="$target" >/dev/null 2>&1 && break; sleep 0.2; done

check "health from the host CLI" "$CLI" health --target="$target"
check "health from the CLI inside the image" docker exec "$container" collide health --target="$target"
check "query with the CLI" "$CLI" query --target="$target" examples/pairs.json
check "query with the Python client" env PYTHONPATH="$BUILD_DIR/client/python:client/python" \
  $PY client/python/examples/quickstart.py "$target"
check "runs as a non-root user" bash -c "[[ \$(docker exec $container id -u) != 0 ]]"
check "root filesystem is read-only" bash -c "! docker exec $container sh -c 'touch /usr/local/bin/x' 2>/dev/null"
check "image HEALTHCHECK reports healthy" bash -c "for i in \$(seq 40); do
    [[ \$(docker inspect -f '{{.State.Health.Status}}' $container) == healthy ]] && exit 0; sleep 0.5; done; exit 1"

# 5. docker stop sends SIGTERM: the server drains and exits 0.
docker stop -t 20 "$container" >/dev/null
check "docker stop drains and exits 0" bash -c "[[ \$(docker inspect -f '{{.State.ExitCode}}' $container) == 0 ]]"
check "drain logged" bash -c "docker logs $container 2>&1 | grep -qi drain"

echo "container-test: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
