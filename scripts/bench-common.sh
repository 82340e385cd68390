# Sourced by scripts/bench.sh, scripts/mesh-bench.sh and scripts/mesh-watertight.sh (not run on its own):
# run_bench TARGET [Google Benchmark flags...] builds the benchmark TARGET in
# Release in $BUILD_DIR, runs it with $MIN_TIME and $REPETITIONS (medians
# only) and writes bench/results/<machine>/TARGET.txt and TARGET.json. It sets
# what the callers' result notes print: model, cores, MACHINE, out, commit,
# started, load_before, load_after.

# commit_stamp PATH...: the short HEAD commit, with "+changes" when the
# working tree differs from it under PATH (results left out: a run rewriting
# its own report is not a change of what it measures).
commit_stamp() {
  echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- "$@" ':(exclude)bench/results' || echo '+changes')"
}

# run_bench: as above.
run_bench() {
  local target="$1"
  shift
  model="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  cores="$(nproc)"
  MACHINE="${MACHINE:-$(echo "${model}" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/-$//')-${cores}c}"
  out="bench/results/${MACHINE}"
  mkdir -p "${out}"
  cmake -S . -B "${BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCOLLIDE_BUILD_SERVICE=OFF -DCOLLIDE_BUILD_TESTS=OFF -DCOLLIDE_BUILD_BENCH=ON >/dev/null
  nice cmake --build "${BUILD_DIR}" -j "${JOBS}" --target "${target}"
  commit="$(commit_stamp core bench)"
  load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
  started="$(date -u '+%Y-%m-%d %H:%M UTC')"
  "${BUILD_DIR}/bench/${target}" --benchmark_min_time="${MIN_TIME}" --benchmark_repetitions="${REPETITIONS}" \
    --benchmark_report_aggregates_only=true --benchmark_color=false \
    --benchmark_out="${out}/${target}.json" --benchmark_out_format=json "$@" 2>/dev/null |
    tee "${out}/${target}.txt"
  load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
}
