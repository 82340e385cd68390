#!/usr/bin/env bash
# Checks that the C++ sources are formatted as .clang-format says:
# clang-format --dry-run --Werror on every tracked .cc and .h (git ls-files;
# outside a git checkout, find), except the files listed in
# scripts/format-exclude.txt (they did not conform when the check was added
# and are being edited on other branches: format one, then delete its line).
# Prints each file that differs; exit 1 if any does. Registered with ctest as
# format_check (label lint).
# Usage: scripts/format-check.sh [FILE...]   (default: the whole tree)
# Env:   CLANG_FORMAT (default clang-format)
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
if (($#)); then
  files=("$@")
elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cc' '*.h')
else
  mapfile -t files < <(find bench client convert core import server tests \
    -path '*/node_modules' -prune -o \( -name '*.cc' -o -name '*.h' \) -print | sort)
fi
mapfile -t excluded < <(grep -v -E '^(#|$)' scripts/format-exclude.txt)
declare -A skip
for f in "${excluded[@]}"; do skip[$f]=1; done
bad=0
checked=0
for f in "${files[@]}"; do
  [[ -n ${skip[$f]:-} || ! -f $f ]] && continue
  checked=$((checked + 1))
  if ! "$CLANG_FORMAT" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "format-check: $f differs from .clang-format (run: $CLANG_FORMAT -i $f)"
    bad=$((bad + 1))
  fi
done
echo "format-check: $checked files checked, $bad differ, ${#excluded[@]} excluded (scripts/format-exclude.txt)"
((bad == 0))
