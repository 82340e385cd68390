#!/usr/bin/env bash
# Installs what is missing for the server (scripts/install-deps.sh --server:
# no test, benchmark or other-language client packages), builds collide-server
# and the collide CLI (Release) and starts the server on 127.0.0.1:50051, then
# waits until `collide health` answers SERVING.
#
# Usage: scripts/start.sh [--foreground] [--port=N] [-- extra collide-server flags]
#   default     runs in the background: pid in run/collide-server.pid, log in
#               run/collide-server.log; stop it with scripts/stop.sh.
#   --foreground runs in this terminal (Ctrl-C or SIGTERM drains and stops it).
# Idempotent: if the server of run/collide-server.pid is running, says so.
# Env: BUILD_DIR (default build), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-$(nproc)}"
PORT=50051
FOREGROUND=0
EXTRA=()
while (($#)); do
  case "$1" in
    --foreground) FOREGROUND=1 ;;
    --port=*) PORT="${1#--port=}" ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "start.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
TARGET="127.0.0.1:${PORT}"
RUN_DIR="$PWD/run"
PID_FILE="$RUN_DIR/collide-server.pid"
LOG_FILE="$RUN_DIR/collide-server.log"
SERVER="$BUILD_DIR/server/collide-server"
CLI="$BUILD_DIR/client/collide"

# The pid file's process, if it is still a collide-server.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid; pid="$(cat "$PID_FILE")"
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q collide-server \
    && echo "$pid"
}

if pid="$(running_pid)"; then
  echo "collide-server is already running (pid $pid, log $LOG_FILE)."
  "$CLI" health --target="$TARGET" || true
  exit 0
fi

scripts/install-deps.sh --server
# A new build directory is configured without what the server profile lacks
# (GTest, Google Benchmark, FCL, Bullet, Embree, Go, Node.js); one configured
# before (e.g. by scripts/test.sh, which turns these back on) keeps its options.
SERVER_ONLY=()
[[ -f "$BUILD_DIR/CMakeCache.txt" ]] || SERVER_ONLY=(-DCOLLIDE_BUILD_TESTS=OFF -DCOLLIDE_BUILD_ORACLE_TESTS=OFF
  -DCOLLIDE_BUILD_BENCH=OFF -DCOLLIDE_BUILD_CLIENTS=OFF)
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "${SERVER_ONLY[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j "$JOBS" --target collide-server collide

if ((FOREGROUND)); then
  echo "collide-server on $TARGET in the foreground (Ctrl-C to stop)."
  exec "$SERVER" --host=127.0.0.1 --port="$PORT" "${EXTRA[@]}"
fi

mkdir -p "$RUN_DIR"
nohup "$SERVER" --host=127.0.0.1 --port="$PORT" "${EXTRA[@]}" >"$LOG_FILE" 2>&1 &
pid=$!
echo "$pid" >"$PID_FILE"
for _ in $(seq 1 60); do
  if "$CLI" health --target="$TARGET" --timeout=1s >/dev/null 2>&1; then
    cat <<MSG
collide-server is SERVING on $TARGET (pid $pid, log $LOG_FILE).
  see it:    $CLI world demo --target=$TARGET
  query it:  $CLI query examples/pairs.json --target=$TARGET
             $CLI info --target=$TARGET
  stop it:   scripts/stop.sh
MSG
    exit 0
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$PID_FILE"
    echo "start.sh: collide-server exited during startup; the end of its log:" >&2
    tail -n 20 "$LOG_FILE" >&2
    exit 1
  fi
  sleep 0.5
done
echo "start.sh: collide-server (pid $pid) did not become healthy in 30 s; see $LOG_FILE" >&2
exit 1
