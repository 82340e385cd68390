#!/usr/bin/env bash
# go_package_test.sh SERVER_BIN: the Go module as another module uses it,
# offline. Copies client/go (without its vendor/) and tests/consumers/go, a
# module requiring github.com/collide-dev/collide/client/go v0.9.0 with a
# replace to that copy, into a temporary folder; vendors the consumer's
# dependencies from Debian's Go sources (client/go/vendor.py), builds it in
# module mode with -mod=vendor and GOPROXY=off (nothing downloaded), checks
# that the binary records the required module, and runs it against a
# collide-server started on a free loopback port: CONFIRMED, BLOCKED. Run by
# ctest as go_package (GOCACHE: the build's Go cache, when set).
set -euo pipefail
server_bin=$(realpath "$1")
source "$(dirname "$0")/workdir.sh" go-package

mkdir -p "$work/collide-go"
(cd "$root/client/go" && tar --exclude=./vendor --exclude='./.vendor-*' -cf - .) | tar -C "$work/collide-go" -xf -
cp -r "$root/tests/consumers/go" "$work/consumer"

export GO111MODULE=on GOFLAGS=-mod=vendor GOPROXY=off GOWORK=off GOCACHE="${GOCACHE:-$work/gocache}"
/usr/bin/python3 "$root/client/go/vendor.py" "$work/consumer"
grep -qx '# github.com/collide-dev/collide/client/go v0.9.0 => ../collide-go' "$work/consumer/vendor/modules.txt" ||
  { echo "vendor/modules.txt does not list the collide module" >&2; exit 1; }
cd "$work/consumer"
go build -o "$work/collide-consumer" .
go version -m "$work/collide-consumer" | tee "$work/buildinfo.txt"
grep -Eq 'dep[[:space:]]+github.com/collide-dev/collide/client/go[[:space:]]+v0.9.0' "$work/buildinfo.txt" ||
  { echo "the binary does not record github.com/collide-dev/collide/client/go v0.9.0" >&2; exit 1; }
"$here/with_server.sh" "$server_bin" bash -c '"$1" "$COLLIDE_TARGET"' consumer "$work/collide-consumer"
