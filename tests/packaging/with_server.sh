#!/usr/bin/env bash
# with_server.sh SERVER_BIN COMMAND [ARGS...]: starts SERVER_BIN on a free
# loopback port (scripts/local-server.sh), runs COMMAND with COLLIDE_TARGET set
# to its 127.0.0.1:PORT, then stops the server (SIGTERM, SIGKILL after 10 s)
# however COMMAND ended, and exits with COMMAND's status. The packaging tests
# (tests/CMakeLists.txt) run their consumers under it.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: with_server.sh SERVER_BIN COMMAND [ARGS...]" >&2; exit 2; }
server_bin=$1
shift
source "$(dirname "$0")/../../scripts/local-server.sh"
log=$(mktemp -t collide-server-XXXXXX.log)
server_pid=""
stop_server() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null || true
  fi
  rm -f "$log"
}
trap stop_server EXIT
start_local_server "$log" "$server_bin" --worker_threads=2
export COLLIDE_TARGET="127.0.0.1:$port"
status=0
"$@" || status=$?
if ((status != 0)); then
  echo "--- collide-server log ---" >&2
  cat "$log" >&2
fi
exit "$status"
