# Sourced by the package tests (source workdir.sh NAME): sets `here` (this
# folder), `root` (the checkout) and `work`, a temporary folder named after
# NAME that is removed when the test exits.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d -t "collide-$1-XXXXXX")
trap 'rm -rf "$work"' EXIT
