#!/usr/bin/env bash
# Regenerates the committed Go stubs in gen/ from proto/ with Debian's
# protoc-gen-go and protoc-gen-go-grpc; with --check, fails if gen/ differs
# from what they generate now (ctest go_stubs_fresh).
#
# They are committed because Go consumes packages as source: `go build` never
# runs protoc, so a user of this module (and an offline build from Debian's
# Go packages) gets working stubs without the proto toolchain.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
proto="$here/../../proto"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
protoc -I "$proto" --go_out="$out" --go_opt=module=github.com/collide-dev/collide/client/go \
  --go-grpc_out="$out" --go-grpc_opt=module=github.com/collide-dev/collide/client/go \
  collide/v1/geometry.proto collide/v1/collide.proto collide/v1/world.proto
if [[ "${1:-}" == "--check" ]]; then
  if ! diff -ru "$here/gen" "$out/gen"; then
    echo "client/go/gen is stale: run client/go/generate.sh and commit the result" >&2
    exit 1
  fi
  echo "client/go/gen matches proto/"
else
  rm -rf "$here/gen"
  cp -r "$out/gen" "$here/gen"
  echo "regenerated $here/gen"
fi
