#!/bin/bash
# Re-derives the findings of reports made by scan.sh from their own
# points.jsonl (the allocator's sweep, not re-run): `dtrcheck scan --records`
# with scan.sh's options re-runs only the bytes sweep and rewrites
# scan.json, report.md, the plots and scan.txt. --cliff-delta 0.01 is the
# window scan.sh's grid step (0.01) widened the default to; with --records
# there is no step to widen it from. Refuses to keep a report whose
# points.jsonl came out different. Appends "<dir> <wall s> <exit>" to
# OUT/rederive-times.txt.
#
#   DTRCHECK=build/bin/dtrcheck corpus/scan-report-memory/rederive.sh OUT DIRNAME...
set -euo pipefail
bin=${DTRCHECK:-build/bin/dtrcheck}
out=$1
shift
for d in "$@"; do
  dir="$out/$d"
  name=${d%-MSPS}
  name=${name%-DTREqClass}
  heuristic=DTR
  [ "$name" = "$d" ] || heuristic=${d##*-}
  trace=$("$bin" trace-path "$name")
  before=$(mktemp)
  cp "$dir/points.jsonl" "$before"
  start=$(date +%s.%N)
  rc=0
  nice -n 10 "$bin" scan "$trace" --heuristic "$heuristic" --overhead-limit 8 \
      --memory cuda-caching --cliff-delta 0.01 --jobs 1 --records "$dir/points.jsonl" \
      --report "$dir" > "$dir/scan.txt.new" || rc=$?
  end=$(date +%s.%N)
  mv "$dir/scan.txt.new" "$dir/scan.txt"
  if ! cmp -s "$before" "$dir/points.jsonl"; then
    echo "$d: points.jsonl changed" >&2
    rc=3
  fi
  rm -f "$before"
  echo "$d $(echo "$end - $start" | bc) $rc" >> "$out/rederive-times.txt"
done
