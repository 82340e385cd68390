#!/usr/bin/env bash
# Builds the mesh benchmark (bench/mesh_bench.cc) in Release and runs it,
# writing bench/results/<machine>/: mesh_bench.txt (console output, the
# agreement lines and the summary of rates and ratios), mesh_bench.json
# (Google Benchmark JSON) and mesh_bench.md (machine, versions, date, load).
# About 3 minutes: three OpenArena maps and three synthetic meshes, each with
# Embree, Bullet and FCL structures built once (FCL's 1M-triangle build alone
# takes ~3 s per repetition).
#
# Usage: scripts/mesh-bench.sh [extra Google Benchmark flags, e.g. --benchmark_filter=rays]
# Env:   BUILD_DIR (default build-bench), MACHINE (as scripts/bench.sh), MIN_TIME (default 0.2),
#        REPETITIONS (default 3, the summary uses the median), JOBS build jobs (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build-bench}"
MIN_TIME="${MIN_TIME:-0.2}"
REPETITIONS="${REPETITIONS:-3}"
JOBS="${JOBS:-2}"
source scripts/bench-common.sh
run_bench mesh_bench "$@"

cat >"${out}/mesh_bench.md" <<EOF2
# Mesh benchmark results: ${MACHINE}

Produced by \`scripts/mesh-bench.sh\` (bench/mesh_bench.cc) on ${started}, at commit ${commit}.

| | |
|---|---|
| CPU | ${model}, ${cores} cores |
| Compiler | $(c++ --version | head -1) |
| Flags | Release: \`$(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=//p' "${BUILD_DIR}/CMakeCache.txt")\`, C++20, no -march (SSE2) |
| Peers | Embree $(dpkg-query -W -f='${Version}' libembree-dev) (float, one thread; the ISA it picks and pinned to SSE2), Bullet $(dpkg-query -W -f='${Version}' libbullet-dev) double precision, FCL $(dpkg-query -W -f='${Version}' libfcl-dev) |
| Load average (1/5/15 min) | ${load_before} before, ${load_after} after |
| Settings | ${REPETITIONS} repetitions of >= ${MIN_TIME} s, median reported; 4,096 queries per scene and kind, cycled |

Scenes (bench/mesh_scenes.cc): OpenArena maps aggressor, oa_ctf2 and am_underworks2 from
pak6-patch088.pk3 (import/, Bezier patches at 8x8 per patch), a 256 x 256 terrain (131k
triangles), 5,000 boxes (60k) and a 708 x 708 terrain (1.0M). Queries: incoherent rays from eye
points (48 units above random floors, uniformly random directions, unbounded, closest hit);
line of sight between two eye points (any hit within the distance); player capsules (radius
15, 56 tall) standing 1 unit into random floors (collide: every overlapping triangle, capped at
64; Bullet: contactTest; FCL: collide), and raised 20 units for distance (collide vs FCL).
EOF2
echo "mesh-bench: results in ${out}"
