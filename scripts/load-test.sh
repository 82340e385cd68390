#!/usr/bin/env bash
# Load and fault test of collide-server, on 127.0.0.1 only, every loop bounded
# in count and time. Starts its own server on a free loopback port, then:
#  (a) capacity: `collide bench` pairs/s at concurrency 1, 2, 4, 8;
#  (b) soak at about half capacity: no non-OK status, RSS growth at most
#      1 MB/min after warm-up, flat thread and file-descriptor counts;
#  (c) overload at twice the capacity concurrency with --max_concurrent_calls:
#      only OK or RESOURCE_EXHAUSTED, bounded RSS, recovery within seconds;
#  (d) faults: clients SIGKILLed mid-call, 1 us and 1 ms deadlines, idle and
#      half-open TCP connections (nothing or a partial HTTP/2 preface sent),
#      connections reset mid-preface, many short connections; after each the
#      next legitimate call must succeed at once (within 2 s);
#  (e) matches: scripts/matches-bench.sh --short, a few simulated 64-player
#      matches through the Tick stream against a server of its own (~6 s): no
#      call may fail.
# Prints the figures and one summary line; exit 1 on any failed check.
# Usage: scripts/load-test.sh [--short]   (--short: CI, ~2.5 min; default ~15 min)
# Env:   BUILD_DIR (default build), COLLIDE_SERVER_BIN, COLLIDE_CLI_BIN, MAX_CALLS (8),
#        LOAD_SOAK_SECONDS, LOAD_WARMUP_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/local-server.sh
MODE=full
[[ "${1:-}" == "--short" ]] && MODE=short
BUILD_DIR="${BUILD_DIR:-build}"
SERVER_BIN="${COLLIDE_SERVER_BIN:-$BUILD_DIR/server/collide-server}"
CLI_BIN="${COLLIDE_CLI_BIN:-$BUILD_DIR/client/collide}"
if [[ $MODE == short ]]; then
  PROBE_S=3; SOAK_S=60; WARMUP_S=15; OVERLOAD_S=10; SAMPLE_S=3
else
  PROBE_S=10; SOAK_S=600; WARMUP_S=60; OVERLOAD_S=60; SAMPLE_S=10
fi
SOAK_S="${LOAD_SOAK_SECONDS:-$SOAK_S}"  # Overrides, for trying the script out.
WARMUP_S="${LOAD_WARMUP_SECONDS:-$WARMUP_S}"
BATCH=1024
MAX_CALLS="${MAX_CALLS:-8}"  # --max_concurrent_calls of the server under test (0: none).

work="$(mktemp -d)"
server_pid=""
failures=()
cleanup() {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "load-test: FAIL: $*"; failures+=("$*"); }

shed=()
((MAX_CALLS > 0)) && shed=(--max_concurrent_calls="$MAX_CALLS")
start_local_server "$work/server.log" "$SERVER_BIN" --worker_threads=2 "${shed[@]}" --drain_timeout=5s ||
  { echo "load-test: FAIL: the server did not start"; exit 1; }
TARGET="127.0.0.1:$port"
echo "load-test: server pid $server_pid on $TARGET (mode $MODE, max_concurrent_calls $MAX_CALLS)"

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$server_pid/status"; }
threads() { awk '/^Threads/ {print $2}' "/proc/$server_pid/status"; }
fds() { ls "/proc/$server_pid/fd" | wc -l; }
# bench CONCURRENCY SECONDS [extra flags...] -> its output in $work/bench.out
bench() {
  local c=$1 s=$2
  shift 2
  "$CLI_BIN" bench --target="$TARGET" --batch=$BATCH --concurrency="$c" --duration="${s}s" \
    --baseline_duration=100ms "$@" >"$work/bench.out" 2>&1 || true
}
pairs_per_s() { awk '/^service/ {print $2}' "$work/bench.out"; }
status_line() { grep '^status' "$work/bench.out" || echo "status (none: $(head -c 200 "$work/bench.out"))"; }
non_ok() { status_line | tr -s ' ' '\n' | awk 'prev != "" && prev != "OK" && prev != "status" && $1 ~ /^[0-9]+$/ {n += $1} {prev = $1} END {print n + 0}'; }
# The next legitimate call must succeed within 2 s.
healthy_now() {
  local what=$1 t0 t1
  t0=$(date +%s%N)
  if ! "$CLI_BIN" info --target="$TARGET" --deadline=2s >/dev/null 2>&1; then
    fail "after $what: the next call failed"
    return
  fi
  t1=$(date +%s%N)
  echo "  after $what: next call OK in $(((t1 - t0) / 1000000)) ms (threads $(threads), fds $(fds), rss $(($(rss_kb) / 1024)) MB)"
}

# (a) Capacity probe.
echo "(a) capacity: batch $BATCH obb contact pairs, ${PROBE_S}s per step"
capacity=0; cap_conc=1
probe=()
for c in 1 2 4 8; do
  bench "$c" "$PROBE_S"
  pps=$(pairs_per_s); pps=${pps:-0}
  probe+=("$c:$pps")
  echo "  concurrency $c: $pps pairs/s  $(grep '^call latency' "$work/bench.out" || true)  $(status_line)"
  if awk -v a="$pps" -v b="$capacity" 'BEGIN {exit !(a > b)}'; then capacity=$pps; cap_conc=$c; fi
done
echo "  capacity ~ $capacity pairs/s at concurrency $cap_conc"

# (b) Soak at about half capacity: the closed-loop bench cannot set a rate,
# so use the probed concurrency whose rate was nearest half the capacity.
soak_conc=$(printf '%s\n' "${probe[@]}" | awk -F: -v cap="$capacity" '
  {d = $2 - cap / 2; if (d < 0) d = -d} NR == 1 || d < best {best = d; c = $1} END {print c}')
echo "(b) soak: concurrency $soak_conc for ${SOAK_S}s, sampling every ${SAMPLE_S}s after ${WARMUP_S}s warm-up"
bench "$soak_conc" "$SOAK_S" &
bench_pid=$!
sleep "$WARMUP_S"
: >"$work/samples"
while kill -0 "$bench_pid" 2>/dev/null; do
  echo "$(date +%s) $(rss_kb) $(threads) $(fds)" >>"$work/samples"
  sleep "$SAMPLE_S"
done
wait "$bench_pid" || true
soak_pps=$(pairs_per_s)
echo "  $soak_pps pairs/s ($(awk -v a="${soak_pps:-0}" -v b="$capacity" 'BEGIN {printf "%.0f", (b > 0 ? 100 * a / b : 0)}')% of capacity)  $(status_line)"
[[ $(non_ok) -eq 0 ]] || fail "soak: non-OK statuses: $(status_line)"
# A leak, told from the allocator settling: the least-squares slope of RSS
# over the samples, its lower 95% bound (slope - 2 standard errors), and the
# growth over the soak. The soak fails only when the lower bound is above
# 1 MB/min and RSS grew by more than 4 MB: a busy machine's noise (seen:
# 41.8 -> 43.0 MB in 45 s) is neither.
read -r soak_rss_rate soak_rss_low soak_rss_growth soak_thr soak_fd < <(awk '
  NR == 1 {tmin = $3; tmax = $3; fmin = $4; fmax = $4}
  {n++; t[n] = $1; r[n] = $2; if ($3 < tmin) tmin = $3; if ($3 > tmax) tmax = $3; if ($4 < fmin) fmin = $4; if ($4 > fmax) fmax = $4}
  END {
    for (i = 1; i <= n; i++) {mt += t[i] / n; mr += r[i] / n}
    for (i = 1; i <= n; i++) {sxx += (t[i] - mt) ^ 2; sxy += (t[i] - mt) * (r[i] - mr)}
    b = sxx > 0 ? sxy / sxx : 0
    for (i = 1; i <= n; i++) sse += (r[i] - mr - b * (t[i] - mt)) ^ 2
    se = (n > 2 && sxx > 0) ? sqrt(sse / (n - 2) / sxx) : 0
    printf "%.0f %.0f %d %d-%d %d-%d\n", 60 * b, 60 * (b - 2 * se), (n ? r[n] - r[1] : 0), tmin, tmax, fmin, fmax
  }' "$work/samples")
echo "  after warm-up: RSS $(head -1 "$work/samples" | awk '{print $2}') -> $(tail -1 "$work/samples" | awk '{print $2}') kB" \
  "(slope $soak_rss_rate kB/min, at least $soak_rss_low), threads $soak_thr, fds $soak_fd ($(wc -l <"$work/samples") samples)"
((soak_rss_low <= 1024 || soak_rss_growth <= 4096)) ||
  fail "soak: RSS grew $soak_rss_rate kB/min (at least $soak_rss_low > 1 MB/min) and by $soak_rss_growth kB"
awk -v r="$soak_thr" 'BEGIN {split(r, a, "-"); exit !(a[2] - a[1] <= 2)}' || fail "soak: thread count not flat ($soak_thr)"
awk -v r="$soak_fd" 'BEGIN {split(r, a, "-"); exit !(a[2] - a[1] <= 2)}' || fail "soak: fd count not flat ($soak_fd)"
soak_rss=$(rss_kb)

# (c) Overload: two bench processes, each at twice the capacity concurrency
# (4x in all, past --max_concurrent_calls), then recovery.
over_conc=$((2 * cap_conc)); ((over_conc >= MAX_CALLS)) || over_conc=$MAX_CALLS
echo "(c) overload: 2 clients x concurrency $over_conc for ${OVERLOAD_S}s"
peak_rss=0
("$CLI_BIN" bench --target="$TARGET" --batch=$BATCH --concurrency=$over_conc --duration="${OVERLOAD_S}s" \
  --baseline_duration=100ms >"$work/over2.out" 2>&1 || true) &
over2=$!
bench "$over_conc" "$OVERLOAD_S" &
over1=$!
while kill -0 "$over1" 2>/dev/null; do
  r=$(rss_kb); ((r > peak_rss)) && peak_rss=$r
  sleep 1
done
wait "$over1" "$over2" || true
echo "  client 1: $(pairs_per_s) pairs/s  $(grep '^call latency' "$work/bench.out" || true)  $(status_line)"
echo "  client 2: $(awk '/^service/ {print $2}' "$work/over2.out") pairs/s  $(grep '^status' "$work/over2.out" || true)"
# Counts of each status over both clients, e.g. "OK 812 RESOURCE_EXHAUSTED 3120".
over_counts=$(cat "$work/bench.out" "$work/over2.out" | grep '^status' | tr -s ' ' '\n' |
  awk 'prev != "" && prev != "status" && $1 ~ /^[0-9]+$/ {n[prev] += $1; if (!(prev in seen)) {seen[prev] = 1; order[++k] = prev}} {prev = $1}
       END {for (i = 1; i <= k; i++) printf "%s %d ", order[i], n[order[i]]}')
echo "  overload statuses (both clients): ${over_counts:-none}"
[[ "$over_counts" == *RESOURCE_EXHAUSTED* ]] || echo "  (no call was shed: the server kept up, or the limit is above the offered load)"
unexpected=$(cat "$work/bench.out" "$work/over2.out" | grep '^status' | tr -s ' ' '\n' |
  awk 'prev != "" && prev != "OK" && prev != "RESOURCE_EXHAUSTED" && prev != "UNAVAILABLE" && prev != "status" && $1 ~ /^[0-9]+$/ {n += $1} {prev = $1} END {print n + 0}')
((unexpected == 0)) || fail "overload: $unexpected answers other than OK/RESOURCE_EXHAUSTED/UNAVAILABLE"
echo "  peak RSS $((peak_rss / 1024)) MB (after soak $((soak_rss / 1024)) MB)"
((peak_rss - soak_rss <= 256 * 1024)) || fail "overload: RSS grew by $(((peak_rss - soak_rss) / 1024)) MB"
t0=$(date +%s%N)
recovered=""
for _ in $(seq 1 20); do
  bench 1 1
  if [[ $(non_ok) -eq 0 && -n "$(pairs_per_s)" ]]; then recovered=yes; break; fi
done
t1=$(date +%s%N)
if [[ -n "$recovered" ]]; then
  echo "  recovered: a 1 s clean run at $(pairs_per_s) pairs/s within $(((t1 - t0) / 1000000)) ms of the overload's end"
else
  fail "overload: no clean run within 20 s after the overload"
fi

# (d) Faults.
echo "(d) faults"
base_fds=$(fds)
for i in 1 2 3; do  # Clients killed mid-call (65536-pair calls take a while).
  "$CLI_BIN" bench --target="$TARGET" --batch=65536 --concurrency=4 --duration=30s >/dev/null 2>&1 &
  victim=$!
  sleep 1.5
  kill -KILL "$victim"; wait "$victim" 2>/dev/null || true
done
healthy_now "3 clients SIGKILLed mid-call"
# Expired and tiny deadlines: raw gRPC calls (python3-grpcio) carrying a
# 65536-pair packed request encoded by protoc.
python3 -c 'print("level: QUERY_LEVEL_CONTACT")
d = ", ".join("%d, 0, 0, 1" % (i % 7) for i in range(65536))
print("a { kind: PACKED_SHAPE_KIND_SPHERE data: [%s] }" % d)
print("b { kind: PACKED_SHAPE_KIND_SPHERE data: [%s] }" % d)' |
  protoc -I proto --encode=collide.v1.QueryPairsPackedRequest proto/collide/v1/collide.proto >"$work/big.bin"
/usr/bin/python3 - "$TARGET" "$work/big.bin" <<'EOF' || fail "deadline calls"
import collections, sys, time, grpc
target, big = sys.argv[1], open(sys.argv[2], "rb").read()
channel = grpc.insecure_channel(target)
call = channel.unary_unary("/collide.v1.CollisionService/QueryPairsPacked")
for timeout, n in ((1e-6, 200), (1e-3, 50), (0.02, 20)):
    codes = collections.Counter()
    t0 = time.monotonic()
    futures = [call.future(big, timeout=timeout) for _ in range(n)]
    for f in futures:
        try:
            f.result()
            codes["OK"] += 1
        except grpc.RpcError as e:
            codes[e.code().name] += 1
    print(f"  {n} calls of 65536 pairs with a {timeout * 1e6:.0f} us deadline: {dict(codes)} in {time.monotonic() - t0:.2f} s")
    bad = set(codes) - {"OK", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED"}
    if bad:
        sys.exit(f"unexpected codes {bad}")
EOF
healthy_now "expired and tiny deadlines"
# Raw sockets: idle, partial preface, reset mid-preface, many short connections.
python3 - "$port" "$CLI_BIN" "$TARGET" <<'EOF' || fail "raw socket faults"
import socket, subprocess, sys, time
port, cli, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def call_ok():
    t0 = time.monotonic()
    ok = subprocess.run([cli, "info", "--target=" + target, "--deadline=2s"], capture_output=True).returncode == 0
    return ok, (time.monotonic() - t0) * 1000
held = []
for i in range(100):  # 50 idle, 50 with half an HTTP/2 preface, held open.
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if i % 2:
        s.sendall(b"PRI * HTTP/2.0\r\n")
    held.append(s)
ok, ms = call_ok()
print(f"  with 100 idle/half-open connections held: next call {'OK' if ok else 'FAILED'} in {ms:.0f} ms")
bad = not ok
for s in held:
    s.close()
for i in range(50):  # Reset (RST) in the middle of the preface.
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()
t0 = time.monotonic()
for i in range(1000):  # Many short connections.
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.close()
ms_short = (time.monotonic() - t0) * 1000
ok, ms = call_ok()
print(f"  after 50 resets mid-preface and 1000 short connections ({ms_short:.0f} ms): next call {'OK' if ok else 'FAILED'} in {ms:.0f} ms")
sys.exit(1 if bad or not ok else 0)
EOF
for _ in $(seq 1 50); do "$CLI_BIN" info --target="$TARGET" --deadline=2s >/dev/null 2>&1 || true; done
healthy_now "50 short client processes"
# The server closes the faults' connections as it notices them: waited for
# (up to 60 s on a loaded machine), not assumed done after a fixed time.
fds_end=$((SECONDS + 60))
while (($(fds) > base_fds + 4 && SECONDS < fds_end)); do sleep 0.2; done
end_fds=$(fds)
echo "  fds before faults $base_fds, after $end_fds"
((end_fds <= base_fds + 4)) || fail "faults: $((end_fds - base_fds)) file descriptors not released"

# Clean shutdown.
kill -TERM "$server_pid"
t0=$(date +%s%N)
if wait "$server_pid"; then
  echo "  SIGTERM: exit 0 in $((($(date +%s%N) - t0) / 1000000)) ms"
else
  fail "SIGTERM: server exited non-zero"
fi
server_pid=""

# (e) Matches through the Tick stream, on a server of its own.
echo "(e) matches"
matches_ok=yes
COLLIDE_SERVER_BIN="$SERVER_BIN" COLLIDE_CLI_BIN="$CLI_BIN" scripts/matches-bench.sh --short >"$work/matches.out" 2>&1 ||
  matches_ok=no
sed 's/^/  /' "$work/matches.out"
[[ $matches_ok == yes ]] || fail "matches: a call failed or the run did not complete"

if ((${#failures[@]})); then
  echo "load-test: FAILED (${#failures[@]} checks): ${failures[*]}"
  exit 1
fi
echo "load-test: PASS capacity ${capacity} pairs/s (c=$cap_conc); soak ${soak_pps:-?} pairs/s, 0 errors," \
  "RSS ${soak_rss_rate} kB/min, threads $soak_thr, fds $soak_fd; overload ${over_counts}peak RSS $((peak_rss / 1024)) MB;" \
  "faults survived; matches: $(grep -o 'PASS M=[0-9]*: [0-9]* ticks' "$work/matches.out")"
