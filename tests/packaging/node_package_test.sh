#!/usr/bin/env bash
# node_package_test.sh SERVER_BIN: packs client/node with `npm pack` (from a
# copy of the files it packs, so that its prepack step never touches the
# checkout other tests load), installs the tarball with `npm install` into an
# empty temporary folder (--prefer-offline: npm's cache holds the lockfile's
# packages after scripts/install-deps.sh), type-checks a TypeScript consumer
# against it, and runs tests/consumers/node/ through both entry points
# (CommonJS and ES module) against a collide-server started on a free
# loopback port. Run by ctest as node_package.
set -euo pipefail
server_bin=$(realpath "$1")
source "$(dirname "$0")/workdir.sh" node-package
npm_flags=(--no-audit --no-fund --loglevel=error --prefer-offline)

# The repository's layout, as pack_files.js expects it: client/node, proto/, LICENSE, NOTICE.
mkdir -p "$work/repo/client"
cp -r "$root/client/node" "$work/repo/client/node"
rm -rf "$work/repo/client/node/node_modules" "$work/repo/client/node/proto" "$work/repo/client/node"/*.tgz
cp -r "$root/proto" "$work/repo/proto"
cp "$root/LICENSE" "$root/NOTICE" "$work/repo/"
mkdir "$work/dist"
(cd "$work/repo/client/node" && npm pack "${npm_flags[@]}" --pack-destination "$work/dist" >/dev/null)
tarball=$(ls "$work/dist"/collide-client-*.tgz)
listing=$(tar -tzf "$tarball")
for f in package/proto/collide/v1/world.proto package/proto/google/rpc/status.proto package/index.mjs \
  package/index.d.ts package/LICENSE package/README.md; do
  grep -qx "$f" <<<"$listing" || { echo "node_package: $f missing from $(basename "$tarball")" >&2; exit 1; }
done

mkdir "$work/app"
cd "$work/app"
npm install "${npm_flags[@]}" "$tarball" >/dev/null
cp "$root"/tests/consumers/node/{shot.cjs,shot.mjs,play.cjs,consumer.ts,tsconfig.json} .
# Its own types, nothing of the checkout but the compiler and Node's types.
node "$root/client/node/node_modules/typescript/bin/tsc" -p tsconfig.json \
  --typeRoots "$root/client/node/node_modules/@types" --types node
"$here/with_server.sh" "$server_bin" bash -c 'node shot.cjs "$COLLIDE_TARGET" && node shot.mjs "$COLLIDE_TARGET"'
