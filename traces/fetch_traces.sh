#!/usr/bin/env bash
# Fetch the eight public simrd traces into the dtrcheck trace cache.
#
# Downloads simrd/logs.zip from uwsampl/dtr-prototype at the commit pinned in
# traces/manifest.json, checks the archive's SHA-256, extracts the logs and
# checks every log's SHA-256 against the manifest before installing it into
#   ${XDG_CACHE_HOME:-$HOME/.cache}/dtrcheck/traces
# which is the last place dtrcheck looks for traces (see traces/locate.h).
# Nothing is installed unless every file verifies.
#
# Usage: traces/fetch_traces.sh [--zip FILE] [--dest DIR] [--force]
#   --zip FILE  use a local copy of logs.zip instead of downloading it
#               (e.g. the one in the oracle's simrd checkout)
#   --dest DIR  install there instead of the cache directory
#   --force     reinstall even if every trace is already present and verified
# Needs python3 (manifest, zip), sha256sum, and curl or wget to download.
set -euo pipefail

prog=$(basename "$0")
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/manifest.json
err() { echo "$prog: error: $*" >&2; exit 1; }
note() { echo "$prog: $*" >&2; }

zip=
dest=${XDG_CACHE_HOME:-$HOME/.cache}/dtrcheck/traces
force=0
while [ $# -gt 0 ]; do
  case "$1" in
    --zip) [ $# -ge 2 ] || err "--zip needs a file"; zip=$2; shift 2 ;;
    --dest) [ $# -ge 2 ] || err "--dest needs a directory"; dest=$2; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) err "unknown argument: $1 (see --help)" ;;
  esac
done

command -v python3 >/dev/null 2>&1 || err "python3 is required (apt-get install python3)"
command -v sha256sum >/dev/null 2>&1 || err "sha256sum (coreutils) is required"
[ -f "$manifest" ] || err "manifest not found: $manifest"

# One "key value" line per field we need, read from the manifest.
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["source"][sys.argv[2]])' "$manifest" "$1"; }
url=$(field archive_url)
archive_sha=$(field archive_sha256)
archive_dir=$(field archive_dir)
commit=$(field commit)
# "<sha256>  <file>" lines, as sha256sum -c reads them.
sums=$(python3 -c 'import json,sys
for t in json.load(open(sys.argv[1]))["traces"]: print(t["sha256"] + "  " + t["file"])' "$manifest")

verified_in() {  # $1: directory; succeeds if every trace there verifies
  [ -d "$1" ] && (cd "$1" && printf '%s\n' "$sums" | sha256sum --quiet -c - >/dev/null 2>&1)
}

if [ "$force" = 0 ] && verified_in "$dest"; then
  note "all traces already present and verified in $dest"
  exit 0
fi

mkdir -p "$(dirname "$dest")"
work=$(mktemp -d "$(dirname "$dest")/.fetch_traces.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ -z "$zip" ]; then
  zip=$work/logs.zip
  note "downloading $url"
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$zip" "$url" ||
      err "download failed: $url (no internet access? fetch logs.zip elsewhere and pass --zip FILE)"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$zip" "$url" ||
      err "download failed: $url (no internet access? fetch logs.zip elsewhere and pass --zip FILE)"
  else
    err "curl or wget is required to download $url (or pass --zip FILE)"
  fi
fi
[ -f "$zip" ] || err "archive not found: $zip"

actual=$(sha256sum "$zip" | cut -d' ' -f1)
[ "$actual" = "$archive_sha" ] ||
  err "SHA-256 mismatch for $zip: expected $archive_sha (simrd/logs.zip @ ${commit:0:8}), found $actual"

python3 - "$zip" "$work/x" <<'EOF' || err "cannot extract $zip"
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    z.extractall(sys.argv[2])
EOF
src=$work/x/$archive_dir
[ -d "$src" ] || err "$zip has no $archive_dir/ folder"

bad=$(cd "$src" && printf '%s\n' "$sums" | sha256sum -c - 2>/dev/null | grep -v ': OK$' || true)
[ -z "$bad" ] || err "traces in $zip do not match traces/manifest.json:"$'\n'"$bad"

mkdir -p "$dest"
while read -r _ file; do
  cp "$src/$file" "$work/$file.part"
  mv -f "$work/$file.part" "$dest/$file"
done <<< "$sums"
verified_in "$dest" || err "installed traces in $dest do not verify (disk full? concurrent writer?)"
note "installed $(printf '%s\n' "$sums" | wc -l) verified traces in $dest"
