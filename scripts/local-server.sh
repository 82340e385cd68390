# Sourced by scripts that test a collide-server of their own on 127.0.0.1.
# start_local_server LOG SERVER_BIN [FLAGS...]: starts SERVER_BIN on a free
# loopback port (--port=0) with its output in LOG, waits for its startup line
# (60 s at most: a safety net, a loaded machine included) and sets
# `server_pid` and `port`; returns 1, printing the log, if it exited or did
# not start. The caller stops it (kill "$server_pid").
start_local_server() {
  local log=$1 bin=$2
  shift 2
  "$bin" --host=127.0.0.1 --port=0 "$@" >"$log" 2>&1 &
  server_pid=$!
  port=""
  local end=$((SECONDS + 60))
  while ((SECONDS < end)) && kill -0 "$server_pid" 2>/dev/null; do
    port=$(grep -soE 'listening on 127\.0\.0\.1:[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    [[ -n "$port" ]] && return 0
    sleep 0.1
  done
  cat "$log"
  return 1
}
