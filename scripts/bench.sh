#!/usr/bin/env bash
# Builds the pair benchmark in Release and runs it, writing
# bench/results/<machine>/: pair_bench.txt (console + summary table),
# pair_bench.json (Google Benchmark JSON), pair_instructions.txt (callgrind
# instructions per pair, a load-independent second figure) and README.md
# (the machine, compiler, flags, library versions, date and load).
# The whole run takes about 8 minutes: this VM's speed drifts from minute to
# minute, and 7 repetitions of 0.2 s (median) keep FCL's times, which drift
# most, from setting a ratio by one slow phase (3 of 0.1 s moved FCL's
# sphere-OBB distance by 166-199 ns between runs).
#
# Usage: scripts/bench.sh [extra Google Benchmark flags, e.g. --benchmark_filter=obb]
# Env:   BUILD_DIR (default build-bench), MACHINE (default from the CPU model and core count),
#        MIN_TIME seconds per benchmark repetition (default 0.2), REPETITIONS (default 7, the
#        summary uses the median), INSTRUCTION_PAIRS pairs per callgrind sweep (default 5000,
#        0 skips callgrind), JOBS build jobs (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build-bench}"
MIN_TIME="${MIN_TIME:-0.2}"
REPETITIONS="${REPETITIONS:-7}"
INSTRUCTION_PAIRS="${INSTRUCTION_PAIRS:-5000}"
JOBS="${JOBS:-2}"
source scripts/bench-common.sh
run_bench pair_bench "$@"
bench="${BUILD_DIR}/bench/pair_bench"

if ((INSTRUCTION_PAIRS > 0)); then
  cg="$(mktemp -d)"
  trap 'rm -rf "${cg}"' EXIT
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="${cg}/cg.out" \
    "${bench}" --instructions="${INSTRUCTION_PAIRS}" >/dev/null 2>"${cg}/valgrind.log"
  python3 - "${cg}" "${INSTRUCTION_PAIRS}" >"${out}/pair_instructions.txt" <<'EOF'
import glob, re, sys
folder, pairs = sys.argv[1], int(sys.argv[2])
ir = {}  # benchmark name -> instructions per pair, in dump order.
dumps = glob.glob(folder + "/cg.out.*")
for path in sorted(dumps, key=lambda p: int(p.rsplit(".", 1)[1])):
    text = open(path).read()
    name = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
    total = re.search(r"^totals: (\d+)", text, re.M)
    if name and total:
        ir[name.group(1)] = int(total.group(1)) / pairs
impls = ["kernel", "slot", "query", "gjk", "fcl", "bullet", "bt_world", "textbook"]
print(f"Instructions per pair (callgrind Ir of one sweep over the first {pairs} pairs of each set;")
print("independent of machine load). Columns as in pair_bench.txt; ratios are peer / collide,")
print("against the typed kernel and Query; bt = the faster of the two Bullet APIs.\n")
print(f"{'level':<10} {'kind':<24} " + " ".join(f"{i:>8}" for i in impls) +
      f" {'fcl/kern':>8} {'bt/kern':>8} {'fcl/qry':>8} {'bt/qry':>8}  target")
def cell(v): return f"{v:8.0f}" if v is not None else f"{'-':>8}"
def ratio(p, m): return f"{p / m:8.1f}" if p is not None and m else f"{'-':>8}"
for row in dict.fromkeys(n.rsplit("/", 1)[0] for n in ir):
    level, kind = row.split("/")
    v = [ir.get(f"{row}/{i}") for i in impls]
    kernel, query, fcl = v[0], v[2], v[4]
    bullet = min((x for x in v[5:7] if x is not None), default=None)  # the faster Bullet API.
    verdict = "-"
    if kernel and fcl:  # the targets of pair_bench.cc's summary, on instructions.
        ok = fcl / kernel >= (5 if level == "intersect" else 4)
        ok = ok and (level != "intersect" or (bullet is not None and bullet / kernel >= 3))
        verdict = "ok" if ok else "MISS"
    print(f"{level:<10} {kind:<24} " + " ".join(cell(x) for x in v) +
          f" {ratio(fcl, kernel)} {ratio(bullet, kernel)} {ratio(fcl, query)} {ratio(bullet, query)}  {verdict}")
EOF
  cat "${out}/pair_instructions.txt"
fi

cat >"${out}/README.md" <<EOF
# Pair benchmark results: ${MACHINE}

Produced by \`scripts/bench.sh\` (bench/pair_bench.cc) on ${started}, at commit ${commit}.

| | |
|---|---|
| CPU | ${model}, ${cores} cores ($(lscpu | sed -n 's/^Hypervisor vendor: *//p' | head -1 | sed 's/^\(.\+\)$/virtual machine, hypervisor \1/')) |
| Caches | L2 $(lscpu | sed -n 's/^L2 cache: *//p'), L3 $(lscpu | sed -n 's/^L3 cache: *//p') |
| Compiler | $(c++ --version | head -1) |
| Flags | Release: \`$(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "${BUILD_DIR}/CMakeCache.txt")\`, C++20, no -march (generic x86-64) |
| Peers | FCL $(dpkg-query -W -f='${Version}' libfcl-dev) (libccd solver), Bullet $(dpkg-query -W -f='${Version}' libbullet-dev) double precision, Google Benchmark $(dpkg-query -W -f='${Version}' libbenchmark-dev) |
| Load average (1/5/15 min) | ${load_before} before, ${load_after} after |
| Settings | ${REPETITIONS} repetitions of >= ${MIN_TIME} s, median reported; 100,000 pairs per kind |

Files:
- \`pair_bench.txt\`: the console output, the sanity lines (hit counts and answer
  differences per library) and the summary table (ns per pair and ratios).
- \`pair_bench.json\`: Google Benchmark JSON; \`pair_time\` is CPU seconds per pair.
- \`pair_instructions.txt\`: callgrind instructions per pair (${INSTRUCTION_PAIRS} pairs per set).

The machine is shared with other jobs: times are CPU time (not wall time), which
preemption does not inflate, but cache and memory contention still can. The
instruction counts do not depend on load; use them to compare runs made under
different loads.

Reading the peers' figures (details in bench/peer_*.cc):
- FCL's contact level tests the pair and computes depth, normal and point only
  when it overlaps; collide's kContact also returns the signed distance and
  witness points of separated pairs. FCL's depths are not the minimum
  translation distance for sphere-triangle, capsule-capsule, capsule-box,
  box-box (ODE's box-box) and hulls: see the "depth ... differ" sanity counts,
  where Bullet agrees with collide.
- Bullet has no boolean query, and its distance and contact are one call.
  "bullet" is btGjkPairDetector + GJK-EPA (shapes with zero margin but for
  sphere and capsule radii); "bt_world" is contactPairTest, whose dispatcher
  picks Bullet's specialized algorithms; ratios use the faster of the two.
- Triangles in FCL go through its narrow-phase solver's shapeTriangle* calls
  (FCL's collision matrix has no shape-vs-triangle entry).
EOF
echo "bench: results in ${out}"
