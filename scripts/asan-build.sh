#!/usr/bin/env bash
# Configures and builds the one clang ASan + UBSan build (build-asan/) that
# both the suite under ASan (scripts/sanitize.sh address) and the fuzzers
# (scripts/fuzz.sh) use: -DCOLLIDE_FUZZ=ON, so every library carries
# libFuzzer's coverage instrumentation, a no-op outside the fuzzers. Building
# the libraries once instead of twice saves CI about 8 minutes on 2 cores.
# Usage: scripts/asan-build.sh [TARGET...]   (default: everything)
# Env:   ASAN_BUILD_DIR (build-asan), JOBS (nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${ASAN_BUILD_DIR:-build-asan}"
CC=clang CXX=clang++ cmake -S . -B "$DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCOLLIDE_FUZZ=ON -DCOLLIDE_BUILD_BENCH=OFF >/dev/null
targets=()
(($#)) && targets=(--target "$@")
cmake --build "$DIR" -j "${JOBS:-$(nproc)}" "${targets[@]}"
