#!/usr/bin/env bash
# Fetch simrd (the Python DTR simulator) for the dtrcheck oracle.
#
# Installs the simrd/ folder of https://github.com/uwsampl/dtr-prototype at
# commit eff53cc4804cc7d6246a6e5086861ce2b846f62b into
#   ${SIMRD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dtrcheck}/simrd
# so that the package is at .../simrd/simrd (that folder is what
# oracle/simrd_oracle.py uses by default; or point SIMRD_DIR at it).
#
# Usage: oracle/get_simrd.sh [--from-git-dir DIR] [--force]
#   --from-git-dir DIR  take the commit from an existing (bare or mirror) git
#                       directory instead of the network, via `git archive`
#   --force             replace an existing installation
# Idempotent: an existing, verified installation is left alone.
set -euo pipefail

REPO_URL=${SIMRD_REPO_URL:-https://github.com/uwsampl/dtr-prototype}
COMMIT=eff53cc4804cc7d6246a6e5086861ce2b846f62b
# sha256 over `sha256sum` lines of the package's *.py files (paths relative to
# the simrd/ folder, LC_ALL=C sorted) at $COMMIT.
PKG_DIGEST=60674acd1d5b1a4c488c1a720cfdaee5303593f31c6e07e4d7bf95a6f9d98ebe

prog=$(basename "$0")
err() { echo "$prog: error: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

from_git_dir=
force=0
while [ $# -gt 0 ]; do
  case "$1" in
    --from-git-dir) [ $# -ge 2 ] || err "--from-git-dir needs a directory"; from_git_dir=$2; shift 2 ;;
    --from-git-dir=*) from_git_dir=${1#*=}; shift ;;
    --force) force=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) err "unknown argument: $1 (see --help)" ;;
  esac
done

cache=${SIMRD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dtrcheck}
target=$cache/simrd
marker=$cache/simrd.commit

command -v git >/dev/null 2>&1 || err "git is required (apt-get install git)"
command -v tar >/dev/null 2>&1 || err "tar is required"
command -v sha256sum >/dev/null 2>&1 || err "sha256sum (coreutils) is required"

pkg_digest() {  # $1: a folder containing the simrd package
  (cd "$1" && find simrd -type f -name '*.py' -not -path '*/__pycache__/*' \
     | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -d' ' -f1)
}

if [ -d "$target" ] && [ "$force" = 0 ]; then
  if [ -f "$target/simrd/runtime/v2.py" ] && [ "$(pkg_digest "$target")" = "$PKG_DIGEST" ]; then
    note "simrd @ ${COMMIT:0:8} already present and verified at $target"
    exit 0
  fi
  err "$target exists but does not hold simrd @ ${COMMIT:0:8} (package digest mismatch); re-run with --force to replace it"
fi

if [ -n "$from_git_dir" ]; then
  [ -d "$from_git_dir" ] || err "no such git directory: $from_git_dir"
  gitd=$from_git_dir
  got=$(git --git-dir="$gitd" rev-parse --verify --quiet "${COMMIT}^{commit}") \
    || err "$from_git_dir is not a git directory containing commit $COMMIT"
fi

mkdir -p "$cache" || err "cannot create $cache"
stage=$(mktemp -d "$cache/.simrd.tmp.XXXXXX") || err "cannot create a temporary directory in $cache"
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT

if [ -z "$from_git_dir" ]; then
  note "fetching $REPO_URL @ ${COMMIT:0:8} (shallow) ..."
  gitd=$stage/repo.git
  git init --quiet --bare "$gitd" || err "git init failed"
  if ! git --git-dir="$gitd" fetch --quiet --depth 1 "$REPO_URL" "$COMMIT"; then
    note "shallow fetch of the commit failed; fetching the full history instead ..."
    git --git-dir="$gitd" fetch --quiet "$REPO_URL" '+refs/heads/*:refs/remotes/origin/*' \
      || err "could not fetch $REPO_URL (no network access? then use --from-git-dir DIR, or copy an installed simrd folder and set SIMRD_DIR)"
  fi
  got=$(git --git-dir="$gitd" rev-parse --verify --quiet "${COMMIT}^{commit}") \
    || err "commit $COMMIT is not in what was fetched from $REPO_URL"
fi
[ "$got" = "$COMMIT" ] || err "commit verification failed: got $got, expected $COMMIT"

# Only simrd/ is extracted. (With a partial mirror git may warn about missing
# objects elsewhere in the repository, e.g. under dtr_code/; that is harmless.)
git --git-dir="$gitd" archive --format=tar "$COMMIT" simrd | tar -x -C "$stage" \
  || err "git archive/tar of simrd/ at $COMMIT failed"
[ -f "$stage/simrd/simrd/runtime/v2.py" ] || err "extracted tree has no simrd/simrd/runtime/v2.py"
d=$(pkg_digest "$stage/simrd")
[ "$d" = "$PKG_DIGEST" ] || err "package digest mismatch after extraction: $d (expected $PKG_DIGEST)"

rm -rf "$target"
mv "$stage/simrd" "$target" || err "cannot move simrd into $target"
echo "$COMMIT" > "$marker"
note "installed simrd @ ${COMMIT:0:8} at $target (package: $target/simrd)"
if ! python3 -c 'import attr' >/dev/null 2>&1; then
  note "warning: python3 cannot import attrs; install it: apt-get install python3-attr (or: python3 -m pip install attrs)"
fi
