#!/usr/bin/env bash
# Builds bench/mesh_watertight in Release and runs it: a million rays per
# OpenArena map (aggressor, oa_ctf2, am_underworks2) through the maps' own
# vertices and edges, sight lines grazing them, eye-to-eye sight lines and
# incoherent rays, judged against the exact answer for collide, Embree and
# Bullet. Writes bench/results/<machine>/mesh_watertight.txt (the report,
# with the machine, commit and date on top). About 14 minutes on the shared
# 2-core VM (the reference: a rational-arithmetic check per undecided sign).
#
# Usage: scripts/mesh-watertight.sh [--rays=N] [map...]
# Env:   BUILD_DIR (default build-bench), MACHINE (as scripts/bench.sh), JOBS build jobs (default 2).
# Exit status 1 when collide misses a hit or reports a phantom one.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/bench-common.sh  # commit_stamp
BUILD_DIR="${BUILD_DIR:-build-bench}"
JOBS="${JOBS:-2}"
model="$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
MACHINE="${MACHINE:-$(echo "${model}" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/-$//')-$(nproc)c}"
out="bench/results/${MACHINE}"
mkdir -p "${out}"
cmake -S . -B "${BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCOLLIDE_BUILD_SERVICE=OFF -DCOLLIDE_BUILD_TESTS=OFF -DCOLLIDE_BUILD_BENCH=ON >/dev/null
nice cmake --build "${BUILD_DIR}" -j "${JOBS}" --target mesh_watertight
{
  echo "# mesh_watertight on ${model} ($(nproc) cores), $(date -u '+%Y-%m-%d %H:%M UTC'), commit" \
    "$(commit_stamp core bench tests/support);" \
    "Embree $(dpkg-query -W -f='${Version}' libembree-dev), Bullet $(dpkg-query -W -f='${Version}' libbullet-dev) double"
  "${BUILD_DIR}/bench/mesh_watertight" "$@"
} | tee "${out}/mesh_watertight.txt"
