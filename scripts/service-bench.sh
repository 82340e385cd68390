#!/usr/bin/env bash
# The end-to-end figures of bench/README.md, "Service": starts its own
# collide-server on a free 127.0.0.1 port (--worker_threads=2) and runs
# `collide bench` against it, one run per row (OBB-OBB pairs, seed 1):
# batches of 4096 at intersect and contact, packed and readable, 2 and 4 calls
# in flight, then single-pair calls one at a time. Each run also measures the
# in-process core, a bare gRPC round trip and the loopback floor (see
# bench/load/bench.cc), so every ratio comes from one run. Prints each run's
# output and a summary table; exit 1 if any call failed.
# Usage: scripts/service-bench.sh [SECONDS per run, default 8]
# Env:   BUILD_DIR (default build), COLLIDE_SERVER_BIN, COLLIDE_CLI_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/local-server.sh
SECONDS_PER_RUN="${1:-8}"
BUILD_DIR="${BUILD_DIR:-build}"
SERVER_BIN="${COLLIDE_SERVER_BIN:-$BUILD_DIR/server/collide-server}"
CLI_BIN="${COLLIDE_CLI_BIN:-$BUILD_DIR/client/collide}"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

start_local_server "$work/server.log" "$SERVER_BIN" --worker_threads=2 ||
  { echo "service-bench: the server did not start"; exit 1; }
echo "service-bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

failed=0
rows=()
# run LABEL FLAGS...
run() {
  local label=$1
  shift
  echo "=== $label"
  if ! "$CLI_BIN" bench --target="127.0.0.1:$port" --duration="${SECONDS_PER_RUN}s" "$@" | tee "$work/out"; then
    failed=1
  fi
  local pps p50 p99 rt lo
  pps=$(awk '/^service/ {if ($2 >= 1e6) printf "%.2f M", $2 / 1e6; else printf "%.1f k", $2 / 1e3}' "$work/out")
  p50=$(awk '/^call latency/ {print $4}' "$work/out")
  p99=$(awk '/^call latency/ {print $10}' "$work/out")
  rt=$(awk '/^round trip/ {print $4 " / " $7}' "$work/out")
  lo=$(awk '/^loopback/ {print $3 " / " $6}' "$work/out")
  rows+=("| $label | $pps | $p50 / $p99 us | $rt us | $lo us |")
}
for level in intersect contact; do
  for encoding in packed readable; do
    for c in 2 4; do
      run "$encoding, $level, 4096/call, $c in flight" --encoding=$encoding --level=$level --concurrency=$c
    done
  done
done
for encoding in packed readable; do
  run "single pair, $encoding, contact, 1 in flight" --encoding=$encoding --level=contact --batch=1 --concurrency=1
done

echo
echo "| run | pairs/s | call p50 / p99 | round trip p50 / p99 | loopback p50 / p99 |"
echo "| --- | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
echo "service-bench: load average after $(cut -d' ' -f1-3 /proc/loadavg)"
exit $failed
