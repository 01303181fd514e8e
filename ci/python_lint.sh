#!/usr/bin/env bash
# Checks every tracked Python file with flake8 (style, one string style:
# single quotes) and mypy (type hints on every function), with the settings
# of setup.cfg. ctest runs it (python_lint, label style).
#   ci/python_lint.sh [MYPY_CACHE_DIR]
# Needs flake8, flake8-quotes and mypy in one interpreter (Debian: flake8,
# python3-flake8-quotes, python3-mypy; ci/deps.sh). Without them it exits 77
# (ctest: skipped), or 1 when $CI is set, so that CI cannot pass without it.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${1:-.mypy_cache}"

exempt=()

# python3 may be another installation (pyenv) than the one Debian's packages
# went into: take the first that has all three.
py=""
for candidate in "${PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$candidate" ] && "$candidate" -c 'import flake8, flake8_quotes, mypy' 2>/dev/null; then
    py="$candidate"
    break
  fi
done
if [ -z "$py" ]; then
  echo "python_lint: no python3 with flake8, flake8-quotes and mypy; install Debian's flake8," \
       "python3-flake8-quotes and python3-mypy (ci/deps.sh)" >&2
  if [ -n "${CI:-}" ]; then exit 1; fi
  exit 77
fi

files=()
while IFS= read -r f; do
  skip=0
  for e in "${exempt[@]}"; do [ "$f" = "$e" ] && skip=1; done
  [ "$skip" = 1 ] || files+=("$f")
done < <(bash ci/source_files.sh python)

status=0
echo "python_lint: flake8 on ${#files[@]} files (${#exempt[@]} exempt for now)"
"$py" -m flake8 "${files[@]}" || status=1
echo "python_lint: mypy"
# Imported exempt files are read for their types, their errors not reported.
"$py" -m mypy --follow-imports=silent --cache-dir "$cache" "${files[@]}" || status=1
exit "$status"
