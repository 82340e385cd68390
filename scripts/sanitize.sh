#!/usr/bin/env bash
# Sanitizer runs, with clang:
#  address: ASan + UBSan + LeakSanitizer build (scripts/asan-build.sh, shared
#           with the fuzzers; -O1 with line tables, the tests' own code -O0:
#           CMakeLists.txt) running the whole ctest suite;
#  thread:  TSan build running the concurrent server tests (TSAN_TESTS:
#           by default the in-process server tests, the world service and
#           Tick stream tests, and the e2e tests, which drive the real server
#           binary and CLI). Debian's gRPC headers are
#           compiled uninstrumented (tests/sanitizers/tsan_ignorelist.txt),
#           absl::Mutex is made visible to TSan by a preloaded shim
#           (tests/sanitizers/tsan_absl_sync.cc), tests/sanitizers/tsan.supp
#           suppresses findings inside Debian's libraries, and every report
#           left is sorted by tests/sanitizers/tsan_triage.py: accepted only
#           when both accesses are Debian's library code, else the run fails.
#           Builds only those tests (and the binaries e2e_test drives).
# Prints one summary line per run; exit 1 if either fails.
# Usage: scripts/sanitize.sh [address|thread|all]   (default all)
# Env:   ASAN_BUILD_DIR (build-asan), TSAN_BUILD_DIR (build-tsan), JOBS (nproc),
#        TSAN_TESTS ("server_service_test server_unit_test server_world_service_test
#        server_world_tick_test e2e_test world_e2e_test", what CI's tsan stage runs).
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
JOBS="${JOBS:-$(nproc)}"
ASAN_DIR="${ASAN_BUILD_DIR:-build-asan}"
TSAN_DIR="${TSAN_BUILD_DIR:-build-tsan}"
status=0

# Tests left out of the ASan run, each running no compiled code of ours, so
# that ASan has nothing to check in them and the main stage has just run them:
# format_check (clang-format over the sources) and python_client_types (mypy
# over the Python client). Every other test runs instrumented binaries
# (deploy_manifests runs Python, loading no instrumented code; it is cheap).
ASAN_EXCLUDE=(format_check python_client_types)

if [[ $WHAT == all || $WHAT == address ]]; then
  start=$SECONDS
  ASAN_BUILD_DIR="$ASAN_DIR" scripts/asan-build.sh
  for t in "${ASAN_EXCLUDE[@]}"; do echo "sanitize: address: excluded $t"; done
  exclude=()
  ((${#ASAN_EXCLUDE[@]})) && exclude=(-E "^($(IFS='|'; echo "${ASAN_EXCLUDE[*]}"))\$")
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:strict_init_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0"
  if ctest --test-dir "$ASAN_DIR" -j "$JOBS" --output-on-failure "${exclude[@]}" >"$ASAN_DIR/ctest.log" 2>&1; then
    echo "sanitize: address: PASS $(grep -E 'tests passed' "$ASAN_DIR/ctest.log") ($((SECONDS - start)) s)"
  else
    grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error|SUMMARY|Failed|\*\*\*' "$ASAN_DIR/ctest.log" | head -30 || true
    # GoogleTest's own messages (what was expected, what came), which CI's
    # tail of the output would otherwise not show.
    grep -E -A6 ': Failure$' "$ASAN_DIR/ctest.log" | head -40 || true
    echo "sanitize: address: FAILED $(grep -E 'tests passed' "$ASAN_DIR/ctest.log") ($((SECONDS - start)) s; log $ASAN_DIR/ctest.log)"
    status=1
  fi
  unset ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
fi

if [[ $WHAT == all || $WHAT == thread ]]; then
  start=$SECONDS
  CC=clang CXX=clang++ cmake -S . -B "$TSAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCOLLIDE_SANITIZE=thread -DCOLLIDE_BUILD_BENCH=OFF -DCOLLIDE_BUILD_ORACLE_TESTS=OFF >/dev/null
  read -r -a tsan_tests <<<"${TSAN_TESTS:-server_service_test server_unit_test server_world_service_test server_world_tick_test e2e_test world_e2e_test}"
  targets=("${tsan_tests[@]}" collide_tsan_absl_sync)
  [[ " ${tsan_tests[*]} " == *" e2e_test "* ]] && targets+=(collide-server collide)
  [[ " ${tsan_tests[*]} " == *" world_e2e_test "* ]] && targets+=(collide-server)
  cmake --build "$TSAN_DIR" -j "$JOBS" --target "${targets[@]}"
  # Reports go to files (one per process: e2e_test's servers and CLIs too) and
  # are sorted by tests/sanitizers/tsan_triage.py: gRPC-internal reports (both
  # accesses in Debian's gRPC code) are counted, any other fails the run. So no
  # process halts or exits non-zero for a report (exitcode=0); a report about
  # our code still fails the stage, through the triage.
  reports="$(cd "$TSAN_DIR" && pwd)/tsan-reports"
  rm -rf "$reports" && mkdir -p "$reports"
  export TSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/tsan.supp:halt_on_error=0:exitcode=0:log_path=$reports/report:second_deadlock_stack=1:report_signal_unsafe=0"
  # Makes absl::Mutex visible to TSan (tests/sanitizers/tsan_absl_sync.cc);
  # inherited by the servers and CLIs that e2e_test starts.
  export LD_PRELOAD="$(cd "$TSAN_DIR" && pwd)/tests/libcollide_tsan_absl_sync.so"
  failed=()
  for t in "${tsan_tests[@]}"; do
    if ! "$TSAN_DIR/tests/$t" >"$TSAN_DIR/$t.log" 2>&1; then
      failed+=("$t")
      grep -E 'FAILED|Failure' "$TSAN_DIR/$t.log" | head -20 || true
    fi
  done
  unset TSAN_OPTIONS LD_PRELOAD
  shopt -s nullglob
  report_files=("$reports"/report.*)
  shopt -u nullglob
  triage="tsan_triage: no reports"
  if ((${#report_files[@]})); then
    if ! python3 tests/sanitizers/tsan_triage.py "${report_files[@]}" >"$TSAN_DIR/tsan-triage.log"; then
      failed+=(tsan-findings)
      grep -E -A40 'FINDING' "$TSAN_DIR/tsan-triage.log" | head -60 || true
    fi
    triage="$(tail -n 1 "$TSAN_DIR/tsan-triage.log")"
  fi
  if ((${#failed[@]})); then
    echo "sanitize: thread: FAILED ${failed[*]}; $triage ($((SECONDS - start)) s; logs $TSAN_DIR/<test>.log, $TSAN_DIR/tsan-triage.log)"
    status=1
  else
    echo "sanitize: thread: PASS ${tsan_tests[*]}; $triage ($((SECONDS - start)) s)"
  fi
fi
exit $status
