#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test, then the
# robustness stages: sanitizers (scripts/sanitize.sh), fuzzers
# (scripts/fuzz.sh, FUZZ_SECONDS per target), the short load/fault test
# (scripts/load-test.sh --short) and the Docker image
# (scripts/container-test.sh: builds docker/Dockerfile, runs and checks it;
# after main, whose build it uses for the host CLI and Python stubs).
# Prints each stage's time and one summary line.
# Usage: scripts/test.sh --all      every stage: what CI runs (.ci/run)
#        scripts/test.sh            the main stage alone: the build and the whole ctest suite, what a
#                                   change needs before it is pushed (about 20 minutes on a fresh
#                                   2-core machine)
#        (from the repository root, as root on Debian bookworm)
# Env:   BUILD_DIR (default build), JOBS (default nproc), FUZZ_SECONDS (default 30),
#        STAGES (overrides both: any of "main fuzz load container sanitize tsan").
# The sanitize stage is the ASan + UBSan + LSan build running the whole suite. The tsan stage
# is scripts/sanitize.sh thread: a TSan build running the concurrent server tests
# (server_service_test, server_unit_test, the world service and Tick stream tests, e2e_test and
# world_e2e_test with a TSan-built server and CLI); a report
# involving our code fails it (docs/testing.md, "Sanitizers").
# On an idle 2-core machine without a compiler cache all stages take about 75 minutes, builds most
# of it: main 23 (its build 19), fuzz 11 (the ASan build's libraries), load 2, container 2 (its
# compile hits the main stage's cache), sanitize 20 (the ASan tests' build, then the suite), tsan
# about 13. With a warm cache about 30. CI's limit is 90 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
JOBS="${JOBS:-$(nproc)}"
ALL_STAGES="main fuzz load container sanitize tsan"
case "${1:-}" in
  --all) DEFAULT_STAGES=$ALL_STAGES ;;
  "") DEFAULT_STAGES=main ;;
  *) echo "test.sh: unknown argument $1 (--all or nothing)" >&2; exit 2 ;;
esac
STAGES="${STAGES:-$DEFAULT_STAGES}"
export JOBS BUILD_DIR
# Compile lines with paths relative to the build directory, so that ccache's
# entries serve the image's build stage (scripts/container-test.sh seeds it
# with them) and other checkouts.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
# ccache hashes the locale (compiler messages depend on it): the image's.
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_MESSAGES

timings=()
failed=()
# Each stage's output is also kept here, so that the end of the run can repeat
# the failure lines of a failed stage (CI shows only the tail of the output).
STAGE_LOGS="$(mktemp -d)"
stage() {  # stage NAME COMMAND...
  local name=$1 start=$SECONDS
  shift
  echo "=== stage $name"
  if "$@" 2>&1 | tee "$STAGE_LOGS/$name.log"; then
    timings+=("$name $((SECONDS - start))s ok")
  else
    timings+=("$name $((SECONDS - start))s FAILED")
    failed+=("$name")
  fi
  echo "=== stage $name: $((SECONDS - start)) s"
}
main_suite() {  # Chained with &&: set -e does not apply inside `if`.
  # Every part on, also in a build directory scripts/start.sh configured server-only.
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOLLIDE_BUILD_TESTS=ON \
    -DCOLLIDE_BUILD_ORACLE_TESTS=ON -DCOLLIDE_BUILD_BENCH=ON -DCOLLIDE_BUILD_CLIENTS=ON &&
    cmake --build "$BUILD_DIR" -j "$JOBS" &&
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
}

scripts/install-deps.sh
for s in $STAGES; do
  case $s in
    main) stage main main_suite ;;
    sanitize) stage sanitize scripts/sanitize.sh address ;;
    tsan) stage tsan scripts/sanitize.sh thread ;;
    fuzz) stage fuzz scripts/fuzz.sh "${FUZZ_SECONDS:-30}" ;;
    load) stage load scripts/load-test.sh --short ;;
    # The image's own unit-test run repeats what the main stage has just run.
    container) CONTAINER_UNIT_TESTS=$([[ " $STAGES " == *" main "* ]] && echo OFF || echo ON) \
      stage container scripts/container-test.sh "$BUILD_DIR" ;;
    *) echo "test.sh: unknown stage $s"; exit 2 ;;
  esac
done
echo "test.sh: stage timings: ${timings[*]}"
if ((${#failed[@]})); then
  for f in "${failed[@]}"; do
    echo "--- stage $f, its failure lines:"
    grep -E -i 'fail|error|invariant|SUMMARY|Test unit written|base64|FINDING|#[0-9]+ collide::' "$STAGE_LOGS/$f.log" | grep -v -E '^\[[0-9]+/[0-9]+\]|warning:' | tail -40
    grep -E -A6 ': Failure$' "$STAGE_LOGS/$f.log" | head -40 || true  # GoogleTest's expected and actual values.
  done
  echo "test.sh: FAILED stages: ${failed[*]}"
  exit 1
fi
echo "test.sh: PASS (stages: $STAGES)"
