#!/usr/bin/env bash
# Formats every tracked .cc/.h file in place as .clang-format says, with
# clang-format 14 (Debian 12's; other versions format some constructs
# differently, so the check only trusts 14).
#   ci/format.sh           rewrite the files in place
#   ci/format.sh --check   change nothing; name the files that are not
#                          formatted and exit 1 (ctest: format_check, label style)
# Without clang-format 14 it exits 77 (ctest: skipped), or 1 when $CI is set,
# so that CI cannot pass without the check.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = --check ]; then check=1; fi

unavailable() {
  echo "format: $1; install Debian's clang-format (ci/deps.sh)" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  exit 77
}
cf="${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}"
[ -n "$cf" ] || unavailable "clang-format not found"
version="$("$cf" --version)"
[[ "$version" =~ version\ 14\. ]] || unavailable "$cf is not clang-format 14 ($version)"

mapfile -t files < <(bash ci/source_files.sh cxx)
if [ "$check" = 0 ]; then
  "$cf" -i "${files[@]}"
  echo "format: ${#files[@]} files formatted with $cf"
  exit 0
fi
# --Werror makes every unformatted spot an error naming the file; collect the
# names rather than printing each spot.
status=0
out="$("$cf" --dry-run --Werror "${files[@]}" 2>&1)" || status=$?
mapfile -t bad < <(grep -oE '^[^:]+\.(cc|h):[0-9]+:[0-9]+: error' <<<"$out" | cut -d: -f1 | sort -u)
if [ "$status" != 0 ] || [ ${#bad[@]} -gt 0 ]; then
  if [ ${#bad[@]} = 0 ]; then echo "$out" >&2; fi
  echo "format: ${#bad[@]} of ${#files[@]} files are not formatted as .clang-format says:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "format: run ci/format.sh (or clang-format -i FILE) and commit the result" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted as .clang-format says ($cf)"
