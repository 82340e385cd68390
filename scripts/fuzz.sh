#!/usr/bin/env bash
# Builds the libFuzzer targets in the ASan + UBSan build (scripts/asan-build.sh,
# ASAN_BUILD_DIR, default build-asan), and runs each for a
# bounded time from its checked-in seed corpus (tests/fuzz/corpus/<target>/),
# printing the execution counts. New inputs go to a scratch copy, never into
# the repository. A crash leaves its input in $BUILD_DIR/artifacts/.
# An input still running after FUZZ_UNIT_TIMEOUT s (default 25) is reported
# as a hang: a safety net only, far above the slowest input seen (under 1 s
# in ASan, slowest_unit_time_sec), so that a slow or loaded machine never
# turns a slow input into a failure (issue 21; it was 5 s).
# Targets run side by side, JOBS (default nproc) at a time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]    (default 30)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-${FUZZ_SECONDS:-30}}"
UNIT_TIMEOUT="${FUZZ_UNIT_TIMEOUT:-25}"
BUILD_DIR="${ASAN_BUILD_DIR:-build-asan}"
TARGETS=(core_fuzz mesh_fuzz)
if [[ -f tests/fuzz/request_fuzz.cc ]]; then TARGETS+=(request_fuzz); fi
if [[ -f tests/fuzz/import_fuzz.cc ]]; then TARGETS+=(import_fuzz); fi
if [[ -f tests/fuzz/world_fuzz.cc ]]; then TARGETS+=(world_fuzz); fi

# The fuzz targets of the shared ASan build (the suite under ASan builds the rest).
ASAN_BUILD_DIR="$BUILD_DIR" scripts/asan-build.sh "${TARGETS[@]}"

# Each target is one process on one core: they run side by side, as many at
# a time as there are cores (JOBS), each printing its lines once it ends.
fuzz_one() {  # fuzz_one TARGET: its lines on stdout, exit status 1 on a finding
  local t=$1 scratch log runs slowest
  scratch="$(mktemp -d)"
  cp -r "tests/fuzz/corpus/$t/." "$scratch/" 2>/dev/null || true
  log="$BUILD_DIR/$t.log"
  if "$BUILD_DIR/tests/fuzz/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout="$UNIT_TIMEOUT" -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$BUILD_DIR/artifacts/$t-" "$scratch" >"$log" 2>&1; then
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    slowest=$(grep -oE 'stat::slowest_unit_time_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
    echo "fuzz: $t: $runs executions in ${SECONDS_PER_TARGET}s (slowest input ${slowest}s of ${UNIT_TIMEOUT}s), no failure"
    rm -rf "$scratch"
    return 0
  fi
  echo "fuzz: $t: FAILED"; grep -E 'invariant violated|ERROR|SUMMARY|Test unit written' "$log" | head -20
  # The input itself, so a CI log alone reproduces the failure (base64 -d > crash; $t crash).
  for a in "$BUILD_DIR/artifacts/$t-"*; do
    [[ -f "$a" && $(stat -c %s "$a") -le 65536 ]] && echo "fuzz: $t: input $(basename "$a") base64: $(base64 -w0 "$a")"
  done
  rm -rf "$scratch"
  return 1
}

status=0
mkdir -p "$BUILD_DIR/artifacts"
results="$(mktemp -d)"
for t in "${TARGETS[@]}"; do
  while (($(jobs -rp | wc -l) >= ${JOBS:-$(nproc)})); do wait -n || true; done
  { rc=0; fuzz_one "$t" >"$results/$t.out" || rc=$?; echo "$rc" >"$results/$t.rc"; } &
done
wait
for t in "${TARGETS[@]}"; do
  cat "$results/$t.out"
  [[ "$(cat "$results/$t.rc")" == 0 ]] || status=1
done
rm -rf "$results"
exit $status
