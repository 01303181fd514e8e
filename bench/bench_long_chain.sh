#!/usr/bin/env bash
# Time and peak memory of `dtrcheck run` on long forward chains (issue 45,
# class 3): for each N, the chain of bench/make_long_chain.py with N
# operators, under DTR at ratio 0.5, timed by /usr/bin/time -v.
#
#   bench/bench_long_chain.sh [DTRCHECK] [N...]
#
# DTRCHECK defaults to build/bin/dtrcheck, N to 100000 300000 1000000. The
# logs are written once into $CHAIN_DIR (default /tmp/dtrcheck-chains) and
# reused; they are large (244 MB at 1M operators) and never belong in the
# repository. Prints one line per N: operators, log MB, seconds (wall),
# peak RSS MB, and the record's status.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
dtrcheck="${1:-build/bin/dtrcheck}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(100000 300000 1000000)
dir="${CHAIN_DIR:-/tmp/dtrcheck-chains}"
mkdir -p "$dir"

if [[ ! -x "$dtrcheck" ]]; then
  echo "bench_long_chain: $dtrcheck is not an executable" >&2
  exit 2
fi

printf '%-10s %8s %9s %12s  %s\n' operators log_MB seconds peak_RSS_MB status
for n in "${sizes[@]}"; do
  log="$dir/chain-$n.log"
  if [[ ! -s "$log" ]]; then
    python3 "$here/make_long_chain.py" "$n" -o "$log.tmp"
    mv "$log.tmp" "$log"
  fi
  out="$(mktemp)"
  timing="$(mktemp)"
  /usr/bin/time -v "$dtrcheck" run "$log" --ratio 0.5 --json >"$out" 2>"$timing" || true
  seconds="$(awk -F': ' '/Elapsed \(wall clock\)/ {
      n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$timing")"
  rss_kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$timing")"
  status="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["status"])' "$out" \
    2>/dev/null || echo "no record (exit: $(awk -F': ' '/Exit status/ {print $2}' "$timing"))")"
  log_mb="$(( $(stat -c %s "$log") / 1000000 ))"
  printf '%-10s %8s %9s %12s  %s\n' "$n" "$log_mb" "$seconds" "$(( rss_kb / 1024 ))" "$status"
  rm -f "$out" "$timing"
done
