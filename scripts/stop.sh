#!/usr/bin/env bash
# Stops the collide-server that scripts/start.sh started: SIGTERM (the server
# stops accepting calls, reports NOT_SERVING, finishes the calls in flight and
# exits), then waits up to 30 s for it to exit. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
PID_FILE="$PWD/run/collide-server.pid"
if [[ ! -f "$PID_FILE" ]]; then
  echo "collide-server is not running (no $PID_FILE)."
  exit 0
fi
pid="$(cat "$PID_FILE")"
if ! kill -0 "$pid" 2>/dev/null || ! tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q collide-server; then
  echo "collide-server is not running (stale pid file, pid $pid)."
  rm -f "$PID_FILE"
  exit 0
fi
kill -TERM "$pid"
for _ in $(seq 1 60); do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$PID_FILE"
    echo "collide-server (pid $pid) stopped."
    exit 0
  fi
  sleep 0.5
done
echo "stop.sh: collide-server (pid $pid) still running after 30 s; kill -KILL $pid to force it." >&2
exit 1
