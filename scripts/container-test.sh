#!/usr/bin/env bash
# Builds the real image from docker/Dockerfile (which compiles and runs the
# unit tests inside, unless CONTAINER_UNIT_TESTS=OFF), runs it hardened
# (read-only root, no capabilities, no new privileges), and checks it from
# outside: health, queries with the CLI and the Python client, non-root
# user, read-only filesystem, dropped capabilities, the image's own
# HEALTHCHECK, worlds (create from JSON, info, delete, a 2 s `collide world
# demo` through the Tick stream), and that `docker stop` with a Tick stream
# open makes the server drain (the stream ends UNAVAILABLE, not reset) and
# exit 0. Loopback only (--network host, server on 127.0.0.1). When the
# machine has no Docker engine running it starts one
# (dockerd --bridge=none --iptables=false) and stops it at the end; an engine
# already running is used and left running. When there is no
# debian:bookworm-slim image it imports a debootstrap'ed Debian bookworm
# under that name (no registry needed) and keeps it. The test container is
# always removed; the image collide-server:test and its build cache stay, so
# a rerun only recompiles when the sources changed.
# Usage: scripts/container-test.sh [BUILD_DIR]   (as root; BUILD_DIR, default
#        build, holds the host CLI and the generated Python stubs)
# Env:   JOBS: compile jobs inside the image build (default nproc).
#        CONTAINER_UNIT_TESTS: ON (default) builds and runs the unit tests in the
#        image's build stage, OFF skips them (scripts/test.sh: its main stage ran them).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-${BUILD_DIR:-build}}"
IMAGE=collide-server:test
CLI="$BUILD_DIR/client/collide"
PY=/usr/bin/python3
PYPATH="$BUILD_DIR/client/python/gen:client/python"
start=$SECONDS
passed=0
failed=0
container=""
dockerd_pid=""
workdir="$(mktemp -d)"

# wait_until SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds,
# or fails once SECONDS have passed. A wait ends on its event; the time is
# only a safety net for a hung run, never what decides what is checked.
wait_until() {
  local end=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < end)) || return 1
    sleep 0.2
  done
}

check() {  # check NAME COMMAND...
  local name="$1"; shift
  if "$@" >"$workdir/out" 2>&1; then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name"; sed 's/^/    /' "$workdir/out" | tail -20; failed=$((failed + 1))
  fi
}

cleanup() {
  if [[ -n "$container" ]]; then docker rm -f "$container" >/dev/null 2>&1; fi
  if [[ -n "$dockerd_pid" ]]; then
    # Only the engine this script started; it stops its own containerd.
    kill "$dockerd_pid" 2>/dev/null
    wait "$dockerd_pid" 2>/dev/null
    echo "container-test: stopped the dockerd it started"
  fi
  rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for f in "$CLI" "$BUILD_DIR/client/python/gen/collide/v1/collide_pb2.py"; do
  [[ -e "$f" ]] || { echo "container-test: $f missing: build $BUILD_DIR first"; exit 1; }
done
for tool in docker dockerd debootstrap; do
  command -v "$tool" >/dev/null || { echo "container-test: $tool missing (scripts/install-deps.sh)"; exit 1; }
done

# 1. Engine. --bridge=none: containers get no private network; everything
# uses --network host and stays on loopback.
if ! docker info >/dev/null 2>&1; then
  echo "container-test: starting dockerd"
  dockerd --bridge=none --iptables=false >"$workdir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  wait_until 60 docker info
  docker info >/dev/null 2>&1 || { echo "FAIL dockerd did not start"; tail "$workdir/dockerd.log"; exit 1; }
else
  echo "container-test: using the running Docker engine"
fi

# 2. Base image without a registry: a minimal Debian bookworm made like the
# official slim image (debuerreotype's --slimify): the same apt sources
# (release, updates, security); no documentation, manual pages or
# translations, now or from packages installed later; no apt caches. So the
# image size measured here is close to what users get on Docker Hub's base.
if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
  echo "container-test: importing a debootstrap'ed Debian bookworm as debian:bookworm-slim"
  rootfs="$workdir/rootfs"
  debootstrap --variant=minbase bookworm "${rootfs:?}" >"$workdir/debootstrap.log" 2>&1 \
    || { echo "FAIL debootstrap"; tail "$workdir/debootstrap.log"; exit 1; }
  cat >"${rootfs:?}/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/man/*
EOF
  find "${rootfs:?}/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "${rootfs:?}/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
  rm -rf "${rootfs:?}"/usr/share/{groff,info,linda,man}/* "${rootfs:?}"/usr/share/lintian/overrides/*
  rm -f "${rootfs:?}/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -rf "${rootfs:?}"/var/cache/apt/*.bin "${rootfs:?}"/var/cache/apt/archives/*.deb \
    "${rootfs:?}"/var/lib/apt/lists/* "${rootfs:?}"/var/log/apt/* "${rootfs:?}"/var/log/*.log
  tar -C "$rootfs" -c . | docker import - debian:bookworm-slim >/dev/null \
    || { echo "FAIL docker import"; exit 1; }
  rm -rf "${rootfs:?}"
fi
docker image inspect debian:bookworm >/dev/null 2>&1 || docker tag debian:bookworm-slim debian:bookworm

# 3. The unchanged Dockerfile.
# docker/Dockerfile needs BuildKit (its ccache mount): the client's buildx when
# it has one, else Debian's docker.io client (20.10), which has it built in.
export DOCKER_BUILDKIT=1
build=(docker build)
if ! docker buildx version >/dev/null 2>&1 && [[ -x /usr/bin/docker ]]; then build=(/usr/bin/docker build); fi

# The image's ccache (the Dockerfile's cache mount) starts as a copy of this
# machine's, which the main stage has just filled compiling the same sources
# with the same compiler and flags (scripts/test.sh sets CCACHE_BASEDIR, so the
# compile lines name relative paths in both): then the image's build stage
# compiles little.
ccache_dir=$(ccache --get-config cache_dir 2>/dev/null || true)
if [[ -n "$ccache_dir" && -d "$ccache_dir" ]]; then
  seed_start=$SECONDS
  if "${build[@]}" --network host --progress=plain -f - "$ccache_dir" >"$workdir/seed.log" 2>&1 <<'EOF'
FROM debian:bookworm-slim
RUN --mount=type=cache,id=collide-ccache,target=/ccache --mount=type=bind,target=/seed cp -a /seed/. /ccache/
EOF
  then
    echo "container-test: seeded the image's ccache from $ccache_dir ($(du -sh "$ccache_dir" | cut -f1), $((SECONDS - seed_start)) s)"
  else
    echo "container-test: could not seed the image's ccache (the build compiles everything):"; tail -5 "$workdir/seed.log"
  fi
fi

UNIT_TESTS="${CONTAINER_UNIT_TESTS:-ON}"
echo "container-test: docker build (compiles the server and CLI; unit tests inside: $UNIT_TESTS)"
build_start=$SECONDS
if ! "${build[@]}" --network host --progress=plain --build-arg CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-$(nproc)}" \
    --build-arg UNIT_TESTS="$UNIT_TESTS" \
    -f docker/Dockerfile -t "$IMAGE" . >"$workdir/build.log" 2>&1; then
  echo "FAIL docker build"; tail -40 "$workdir/build.log"; echo "container-test: 0 passed, 1 failed"; exit 1
fi
echo "container-test: docker build took $((SECONDS - build_start)) s" \
  "(ccache: $(grep -Eo 'Hits: +[0-9]+ / +[0-9]+' "$workdir/build.log" | head -1 | tr -s ' ' || true))"
unit=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$workdir/build.log" | tail -1)
if [[ $UNIT_TESTS == ON ]]; then
  echo "container-test: unit tests in the build stage: ${unit:-cached (sources unchanged)}"
fi
size=$(docker image inspect "$IMAGE" --format '{{.Size}}')
echo "container-test: image size $((size / 1000000)) MB"

# 4. Run hardened on a free loopback port.
port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
target="127.0.0.1:$port"
if ! container=$(docker run -d --network host --read-only --cap-drop ALL \
    --security-opt no-new-privileges -e COLLIDE_HOST=127.0.0.1 -e COLLIDE_PORT="$port" "$IMAGE"); then
  echo "FAIL docker run"; echo "container-test: 0 passed, 1 failed"; exit 1
fi
# Waits for readiness, not a fixed time: up to 60 s on a loaded machine.
wait_until 60 "$CLI" health --target="$target"

check "health from the host CLI" "$CLI" health --target="$target" --timeout=2s
check "health from the CLI inside the image" docker exec "$container" collide health --target="$target"
check "query with the CLI" bash -c "'$CLI' query --target='$target' examples/pairs.json | tee /dev/stderr |
  grep -q '^pairs\[0\]  hit   distance -0.5 '"
check "query with the Python client" bash -c "PYTHONPATH='$PYPATH' $PY client/python/examples/quickstart.py '$target' |
  tee /dev/stderr | grep -qx 'contact: hit=True distance=-0.5 normal=(1.0, 0.0, 0.0)'"
check "runs as a non-root user" bash -c "[[ \$(docker exec $container id -u) == 10001 ]]"
check "root filesystem is read-only" bash -c "docker exec $container touch /tmp/x 2>&1 |
  tee /dev/stderr | grep -q 'Read-only file system'"
check "no capabilities, no new privileges" bash -c "docker exec $container grep -E 'Cap(Bnd|Eff)|NoNewPrivs' /proc/1/status |
  tee /dev/stderr | awk '/^Cap/ && \$2 != \"0000000000000000\" {bad=1} /^NoNewPrivs/ && \$2 != 1 {bad=1} END {exit bad}'"
check "image has a HEALTHCHECK running the CLI" bash -c "docker image inspect -f '{{json .Config.Healthcheck}}' $IMAGE |
  tee /dev/stderr | grep -q 'collide health'"
healthy() { [[ $(docker inspect -f '{{.State.Health.Status}}' "$container") == healthy ]]; }
becomes_healthy() { wait_until 90 healthy || { docker inspect -f '{{json .State.Health}}' "$container"; return 1; }; }
check "image HEALTHCHECK reports healthy" becomes_healthy

# Worlds (docs/worlds.md) in the real image: one created from a JSON
# description (CreateWorldRequest in the proto's JSON mapping), read back and
# deleted (then NOT_FOUND); a 2 s simulated match (`collide world demo`:
# moves, frames and shots each tick through the Tick stream; exit 0 only when
# every call succeeded and shots were judged); and a second match left
# running, so that step 5 stops the server with a Tick stream open.
cat >"$workdir/world.json" <<'EOF'
{"statics": [{"id": 1, "mesh": {"vertices": [10, -5, 0, 10, 5, 0, 10, 5, 4, 10, -5, 4], "indices": [0, 1, 2, 0, 2, 3]}},
             {"id": 2, "shape": {"sphere": {"center": {"x": 5, "y": 4, "z": 1}, "radius": 1}}}],
 "historyTicks": 16}
EOF
check "world create from a JSON description" bash -c "'$CLI' world create ct-json '$workdir/world.json' --target='$target' |
  tee /dev/stderr | grep -q 'statics 2  triangles 2 '"
check "world info, delete, then NOT_FOUND" bash -c "'$CLI' world info ct-json --target='$target' | grep -q '^world ct-json ' &&
  '$CLI' world delete ct-json --target='$target' && ! '$CLI' world info ct-json --target='$target' 2>'$workdir/gone' &&
  grep -q NOT_FOUND '$workdir/gone'"
check "world demo: 2 s of ticks through the stream" bash -c "set -o pipefail; '$CLI' world demo --seconds 2 --target='$target' |
  tee /dev/stderr | grep -Eq '^summary: [1-9][0-9]* ticks'"
"$CLI" world demo --seconds 60 --target="$target" >"$workdir/demo-open.out" 2>&1 &
demo_pid=$!
# Its stream is open once it has played a second (or it ended: then the checks below fail).
wait_until 60 bash -c "grep -qs '^ *1\.0s' '$workdir/demo-open.out' || ! kill -0 $demo_pid"

# 5. docker stop sends SIGTERM to tini, which forwards it: the server goes
# NOT_SERVING, drains and exits 0 well before docker's SIGKILL.
docker stop -t 20 "$container" >/dev/null
check "docker stop drains and exits 0" bash -c "[[ \$(docker inspect -f '{{.State.ExitCode}}' $container) == 0 ]]"
check "drain logged" bash -c "docker logs $container 2>&1 | tail -5 | tee /dev/stderr | grep -q 'draining in-flight calls'"
check "the open Tick stream drained" bash -c "docker logs $container 2>&1 | grep 'Tick stream' | tee /dev/stderr |
  grep -q 'draining 1 open Tick stream'"
# The running match ends on the stream's final status (UNAVAILABLE, the
# server shutting down): no hang, no reset.
wait_until 60 bash -c "! kill -0 $demo_pid"
check "the match with the open stream ended on its final status" bash -c "! kill -0 $demo_pid 2>/dev/null &&
  tail -3 '$workdir/demo-open.out' | tee /dev/stderr | grep -q 'UNAVAILABLE: the server is shutting down'"
kill "$demo_pid" 2>/dev/null

# Memory (docs/operations.md, "Memory"): the image under the compose file's memory limit,
# driven at twice what admission lets in (--max_items_in_flight 131072: 32
# packed 4096-pair calls, then 2 readable 65536-pair calls; two clients each
# offer that many at once). No OOM kill, only OK and RESOURCE_EXHAUSTED, and
# the resident set back under MEM_AFTER_MB within 5 s of the load's end.
MEM_AFTER_MB=256
docker rm -f "$container" >/dev/null 2>&1
mem_limit=$(awk '/limits:/ {limits = 1} limits && /memory:/ {print $2; exit}' docker/compose.yaml)
mem_port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mem_target="127.0.0.1:$mem_port"
if container=$(docker run -d --network host --read-only --cap-drop ALL --security-opt no-new-privileges \
    --memory "$mem_limit" --memory-swap "$mem_limit" -e COLLIDE_HOST=127.0.0.1 -e COLLIDE_PORT="$mem_port" \
    -e COLLIDE_WORKER_THREADS=2 "$IMAGE"); then
  wait_until 60 "$CLI" health --target="$mem_target"
  # The server is tini's (PID 1's) child; its VmRSS read from the host, kB.
  init_pid=$(docker inspect -f '{{.State.Pid}}' "$container")
  server_pid=$(awk '{print $1}' "/proc/$init_pid/task/$init_pid/children")
  rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status" 2>/dev/null || echo 0; }
  peak_kb=0
  overload() {  # overload ENCODING BATCH CONCURRENCY SECONDS: two clients, RSS sampled meanwhile
    local pids=()
    for c in 1 2; do
      "$CLI" bench --target="$mem_target" --encoding="$1" --batch="$2" --concurrency="$3" --duration="${4}s" \
        --baseline_duration=0s >"$workdir/mem-$1-$c.out" 2>&1 &
      pids+=($!)
    done
    # Sampled for as long as the clients run, however long that takes.
    while kill -0 "${pids[@]}" 2>/dev/null; do r=$(rss_kb); ((r > peak_kb)) && peak_kb=$r; sleep 0.2; done
    wait "${pids[@]}"  # Not a bare wait: the dockerd this script may have started is a child too.
  }
  overload packed 4096 32 15
  overload readable 65536 2 20
  load_end=$SECONDS
  after_kb=$(rss_kb)
  while ((after_kb > MEM_AFTER_MB * 1024 && SECONDS - load_end < 5)); do sleep 0.2; after_kb=$(rss_kb); done
  echo "container-test: memory: limit $mem_limit, peak RSS $((peak_kb / 1024)) MB, $((after_kb / 1024)) MB" \
    "$((SECONDS - load_end)) s after the load"
  grep -h '^status' "$workdir"/mem-*.out | sed 's/^/    /'
  check "memory: no OOM kill under 2x overload" bash -c "[[ \$(docker inspect -f '{{.State.OOMKilled}} {{.State.Running}}' $container) == 'false true' ]]"
  check "memory: only OK and RESOURCE_EXHAUSTED" bash -c "cat '$workdir'/mem-*.out | tee /dev/stderr | awk '
    /^status/ {for (i = 2; i < NF; i += 2) {if (\$i != \"OK\" && \$i != \"RESOURCE_EXHAUSTED\") bad = 1; if (\$i == \"OK\") ok += \$(i + 1)}}
    END {exit bad || ok == 0}'"
  check "memory: RSS back under $MEM_AFTER_MB MB within 5 s" bash -c "(($after_kb > 0 && $after_kb <= $MEM_AFTER_MB * 1024))"
  check "memory: serves after the load" "$CLI" health --target="$mem_target" --timeout=2s
  docker rm -f "$container" >/dev/null 2>&1
  container=""
else
  echo "FAIL docker run with --memory $mem_limit"; failed=$((failed + 1))
fi

echo "container-test: whole run took $((SECONDS - start)) s"
echo "container-test: $passed passed, $failed failed"
[[ $failed == 0 ]]
