#!/usr/bin/env bash
# Matches per replica: the largest M for which one collide-server (2 worker
# threads, this machine, sharing its cores with the load generator) carries
# M simulated matches (`collide bench --matches`: 64 players on an OpenArena
# map at 64 ticks/s through the Tick stream, a frame, every player's move and
# 10 shots per player per second validated each tick) with the p99 tick
# latency under P99_MS and no failed call (ticks missed, when an answer came
# back after the match's next tick was due, are counted and shown).
# Each run starts a fresh server on a free loopback port (so its RSS growth
# is the matches'), M is found by doubling from 4, then bisection; a table of
# every run is printed: latency, server CPU per match-second, RSS per match,
# the load generator's CPU and the machine's load average.
#
# Usage: scripts/matches-bench.sh            the search (~2 min)
#        scripts/matches-bench.sh --short    CI: SHORT_M matches for SHORT_S s,
#                                            fails on any failed call
#        scripts/matches-bench.sh --soak [M] M matches (default: half the
#                                            search's) for SOAK_S s; fails on any
#                                            error or RSS growth past 1 MB/min
#                                            after the first minute
# Env: BUILD_DIR (build), COLLIDE_SERVER_BIN, COLLIDE_CLI_BIN, MAPS_DIR
#      (/usr/share/games/openarena/baseoa, Debian's openarena-088-data), MAP
#      (pak6-patch088.pk3:aggressor), STEP_S (5), P99_MS (10), MAX_M (1024),
#      SHORT_M (4), SHORT_S (5), SOAK_S (600), AUDIT and RECORD (set: the
#      worlds keep an audit trail, a match recording, the server writing them
#      under a temporary --audit_dir, --recordings_dir; docs/replay.md has
#      the overhead), AUDIT_FORMAT (the server's --audit_format, binary or
#      jsonl; unset: its default), VISIBILITY (set: the worlds carry the map's occluders and
#      every tick asks for every player's visibility set; docs/visibility.md), VISIBILITY_REUSE
#      (with VISIBILITY: the worlds' policy.visibility.reuse_ticks).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/local-server.sh
MODE=search
case "${1:-}" in
  --short) MODE=short ;;
  --soak) MODE=soak ;;
  "") ;;
  *) echo "usage: $0 [--short | --soak [M]]" >&2; exit 2 ;;
esac
BUILD_DIR="${BUILD_DIR:-build}"
SERVER_BIN="${COLLIDE_SERVER_BIN:-$BUILD_DIR/server/collide-server}"
CLI_BIN="${COLLIDE_CLI_BIN:-$BUILD_DIR/client/collide}"
MAPS_DIR="${MAPS_DIR:-/usr/share/games/openarena/baseoa}"
MAP="${MAP:-pak6-patch088.pk3:aggressor}"
STEP_S="${STEP_S:-5}"
P99_MS="${P99_MS:-10}"
MAX_M="${MAX_M:-1024}"
[[ -f "$MAPS_DIR/${MAP%%:*}" ]] || { echo "matches-bench: no $MAPS_DIR/${MAP%%:*} (apt-get install openarena-088-data)"; exit 1; }

work="$(mktemp -d)"
server_pid=""
cleanup() {
  [[ -n "$server_pid" ]] && kill -KILL "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# run M SECONDS [extra bench flags...]: a fresh server, the bench against it;
# the bench's output in $work/run.out, its "result" line's fields in $r_*.
run() {
  local m=$1 s=$2
  shift 2
  # Worlds, streams and in-flight messages are limited by flags whose
  # defaults are sized for a general replica: raised to what M matches need.
  # A fresh log each run: the previous server's startup line must not be
  # read as this one's before the new server has truncated the file.
  rm -f "$work/server.log"
  local audit=()
  [[ -n "${AUDIT:-}" ]] && audit=(--audit_dir="$work/audit" ${AUDIT_FORMAT:+--audit_format="$AUDIT_FORMAT"})
  [[ -n "${RECORD:-}" ]] && audit+=(--recordings_dir="$work/recordings")
  start_local_server "$work/server.log" "$SERVER_BIN" --worker_threads=2 --maps_dir="$MAPS_DIR" "${audit[@]}" \
    --max_worlds=$((m + 8)) --max_concurrent_streams=$((m + 64)) --max_concurrent_calls=0 || { echo "matches-bench: the server did not start"; exit 1; }
  "$CLI_BIN" bench --target="127.0.0.1:$port" --matches="$m" --map="$MAP" --transport=stream \
    --duration="${s}s" --server_pid="$server_pid" ${AUDIT:+--audit} ${RECORD:+--record_worlds} ${VISIBILITY:+--visibility} ${VISIBILITY_REUSE:+--visibility_reuse_ticks=$VISIBILITY_REUSE} "$@" >"$work/run.out" 2>&1 || true
  rm -rf "$work/audit" "$work/recordings"
  kill -KILL "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true
  server_pid=""
  local line
  line=$(grep '^result ' "$work/run.out" || true)
  if [[ -z "$line" ]]; then
    echo "matches-bench: no result for M=$m:"; cat "$work/run.out"
    r_matches=$m; r_errors=1; r_ticks=0; r_missed=0
    r_p50_us=0; r_p99_us=0; r_max_us=0; r_cpu_ms_per_match_s=-1; r_rss_mb_per_match=-1; r_server_cpu_pct=0; r_client_cpu_pct=0
    r_load=$(cut -d' ' -f1 /proc/loadavg)
    return
  fi
  for kv in ${line#result }; do printf -v "r_${kv%%=*}" '%s' "${kv#*=}"; done
}
# Whether the last run met the criteria.
passed() {
  awk -v e="$r_errors" -v p="$r_p99_us" -v lim="$P99_MS" -v t="$r_ticks" \
    'BEGIN {exit !(e == 0 && t > 0 && p < lim * 1000)}'
}
header() {
  printf '%6s %8s %8s %8s %6s %7s %13s %11s %9s %9s %8s %5s\n' M "p50 ms" "p99 ms" "max ms" errors missed \
    "cpu ms/match-s" "server %cpu" "MB/match" "gen %cpu" "load" ok
}
row() {
  local ok=no
  passed && ok=yes
  printf '%6d %8.2f %8.2f %8.1f %6d %7d %13.2f %11.0f %9.2f %9.0f %8.1f %5s\n' "$r_matches" \
    "$(awk -v x="$r_p50_us" 'BEGIN {print x / 1000}')" "$(awk -v x="$r_p99_us" 'BEGIN {print x / 1000}')" \
    "$(awk -v x="$r_max_us" 'BEGIN {print x / 1000}')" "$r_errors" "$r_missed" "$r_cpu_ms_per_match_s" \
    "$r_server_cpu_pct" "$r_rss_mb_per_match" \
    "$r_client_cpu_pct" "$r_load" "$ok"
}

echo "matches-bench: $MAP from $MAPS_DIR, 64 players, 64 ticks/s, 10 shots per player per second${VISIBILITY:+, visibility sets every tick${VISIBILITY_REUSE:+ (reuse_ticks $VISIBILITY_REUSE)}}," \
  "p99 < ${P99_MS} ms; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ $MODE == short ]]; then
  m="${SHORT_M:-4}"
  header
  run "$m" "${SHORT_S:-5}"
  row
  if [[ "$r_errors" != 0 || "$r_ticks" == 0 ]]; then
    echo "matches-bench: FAIL: $r_errors failed calls, $r_ticks ticks at M=$m"; grep -E '^(first error|ticks)' "$work/run.out" || true
    exit 1
  fi
  echo "matches-bench: PASS M=$m: $r_ticks ticks, no failed call (p99 $r_p99_us us, not asserted on a shared machine)"
  exit 0
fi

best=0
if [[ $MODE == search || -z "${2:-}" ]]; then
  header
  lo=0; hi=0; m=4
  while ((m <= MAX_M)); do  # Doubling.
    run "$m" "$STEP_S"; row
    if passed; then lo=$m; m=$((m * 2)); else hi=$m; break; fi
  done
  ((hi == 0)) && hi=$((MAX_M + 1))
  while ((hi - lo > 1 && (hi - lo) * 8 > lo)); do  # Bisection to within an eighth.
    m=$(((lo + hi) / 2))
    run "$m" "$STEP_S"; row
    if passed; then lo=$m; else hi=$m; fi
  done
  best=$lo
  echo "matches-bench: largest M meeting the criteria: $best (first failing: $hi)"
fi

if [[ $MODE == soak ]]; then
  m="${2:-$((best / 2))}"
  ((m >= 1)) || { echo "matches-bench: nothing to soak (M=$m)"; exit 1; }
  soak_s="${SOAK_S:-600}"
  echo "soak: $m matches for ${soak_s}s, a line every 10 s"
  run "$m" "$soak_s" --report_every=10s
  grep -E '^ *[0-9.]+s ' "$work/run.out" || true
  grep -E '^(ticks|tick latency|server|load generator|first error)' "$work/run.out" || true
  header; row
  # RSS (MB) per line after the first minute: growth per minute by a least-squares fit.
  growth=$(awk '/^ *[0-9.]+s / {t = $1 + 0; for (i = 1; i < NF; i++) if ($i == "rss") r = $(i + 1);
    if (t >= 60) {n++; st += t; sr += r; stt += t * t; str += t * r}}
    END {if (n < 2 || n * stt == st * st) print 0; else printf "%.3f", 60 * (n * str - st * sr) / (n * stt - st * st)}' "$work/run.out")
  echo "soak: RSS growth after the first minute: $growth MB/min"
  if [[ "$r_errors" != 0 ]] || awk -v g="$growth" 'BEGIN {exit !(g > 1)}'; then
    echo "matches-bench: soak FAIL ($r_errors errors, RSS $growth MB/min)"; exit 1
  fi
  echo "matches-bench: soak PASS M=$m for ${soak_s}s: no errors, RSS $growth MB/min"
fi
