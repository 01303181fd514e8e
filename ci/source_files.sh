#!/usr/bin/env bash
# Lists the repository's own source files of one kind, one per line, relative
# to the repository root: the tracked files (git ls-files) in a git checkout,
# else every file of the tree outside build directories. Used by the style
# checks (ci/format.sh, ci/python_lint.sh, ci/layering_check.py).
#   ci/source_files.sh cxx      .cc and .h files
#   ci/source_files.sh python   .py files, and scripts without a suffix whose
#                               first line runs python (fuzz/campaign)
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:?usage: ci/source_files.sh cxx|python}"

all_files() {
  if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    git ls-files
  else
    find . -name .git -prune -o -path './build*' -prune -o -type f -print | sed 's|^\./||' | sort
  fi
}

case "$kind" in
  cxx) all_files | grep -E '\.(cc|h)$' ;;
  python)
    all_files | while IFS= read -r f; do
      case "$f" in
        *.py) echo "$f" ;;
        */*.* | *.*) ;;
        *) if [ -f "$f" ] && head -n 1 "$f" | grep -q '^#!.*python'; then echo "$f"; fi ;;
      esac
    done ;;
  *) echo "ci/source_files.sh: unknown kind $kind (cxx or python)" >&2; exit 2 ;;
esac | while IFS= read -r f; do
  if [ -f "$f" ]; then echo "$f"; fi  # tracked but deleted in the work tree: skipped
done
