#!/usr/bin/env bash
# cmake_consumer_test.sh BUILD_DIR [CXX]: installs BUILD_DIR to a temporary prefix
# (cmake --install --prefix), configures and builds tests/consumers/cmake/
# against it (find_package(collide CONFIG), nothing of the source tree on any
# path), checks the pkg-config files, then starts the INSTALLED collide-server
# on a free loopback port and runs the consumer against it. CXX: the compiler
# (default c++), the build's when run by ctest as cmake_consumer.
set -euo pipefail
build=$(cd "$1" && pwd)
cxx=${2:-c++}
source "$(dirname "$0")/workdir.sh" cmake-consumer
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
# A copy of the consumer, so that nothing is resolved relative to the tree.
cp -r "$root/tests/consumers/cmake" "$work/consumer"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$work/consumer" -B "$work/consumer/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$prefix" "${launcher[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }

# pkg-config finds both files at the moved prefix, with this version.
version=$(grep -oE '^#define COLLIDE_VERSION "[^"]+"' "$prefix/include/collide/version.h" | cut -d'"' -f2)
for pc in collide collide-core; do
  got=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --modversion "$pc")
  [[ "$got" == "$version" ]] || { echo "pkg-config $pc: version $got, want $version" >&2; exit 1; }
  PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --print-errors --cflags --libs "$pc" >/dev/null
done
# ... and collide-core's flags build and link an in-process world on their own.
cat >"$work/core_only.cc" <<'CC'
#include <iostream>
#include "collide/version.h"
#include "collide/world.h"
int main() {
  collide::World world(collide::WorldSettings{}, {collide::StaticElement{.id = 1, .geometry = collide::Sphere{{0, 0, 0}, 1}}});
  collide::RayQuery ray;
  ray.ray = collide::Ray{{-5, 0, 0}, {1, 0, 0}};
  const std::vector<collide::RayQueryResult> hits = world.RayCasts({&ray, 1});
  std::cout << "core-only " << collide::kVersion << " hit at " << (hits.at(0).hits.empty() ? -1.0 : hits.at(0).hits[0].distance) << "\n";
  return !hits.at(0).hits.empty() && hits.at(0).hits[0].distance == 4.0 ? 0 : 1;
}
CC
# shellcheck disable=SC2046  # pkg-config's flags are words
"$cxx" -std=c++20 -O1 -o "$work/core_only" "$work/core_only.cc" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs collide-core)
"$work/core_only"

"$here/with_server.sh" "$prefix/bin/collide-server" \
  bash -c '"$1" "$COLLIDE_TARGET"' consumer "$work/consumer/build/consumer"
