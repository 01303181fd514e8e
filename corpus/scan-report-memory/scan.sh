#!/bin/bash
# Scans traces under PyTorch's caching allocator (issue 42, item 4): one
# `dtrcheck scan --memory cuda-caching` per trace and heuristic, ratio 0.10
# (resnet50: 0.30) to 1.00 step 0.01, overhead limit 8, one thread, into
# OUT/<trace> (DTR) or OUT/<trace>-<heuristic> (others), appending
# "<dir> <wall s> <user CPU s> <exit>" to OUT/times.txt. A scan also sweeps
# the same budgets under bytes and reports what only the allocator has.
# summarize.py writes the table of README.md from the scan.json files.
#
#   DTRCHECK=build/bin/dtrcheck corpus/scan-report-memory/scan.sh OUT TRACE:HEURISTIC...
#
# The traces are found as `dtrcheck trace-path NAME` finds them
# (DTRCHECK_TRACES for the public ones, traces/captured/ for the captured).
set -euo pipefail
bin=${DTRCHECK:-build/bin/dtrcheck}
out=$1
shift
mkdir -p "$out"
for job in "$@"; do
  name=${job%%:*}
  heuristic=${job##*:}
  dir="$out/$name"
  [ "$heuristic" = DTR ] || dir="$out/$name-$heuristic"
  from=0.10
  [ "$name" = resnet50 ] && from=0.30  # as corpus/scan-report-memory/resnet50
  trace=$("$bin" trace-path "$name")
  start=$(date +%s.%N)
  rc=0
  /usr/bin/time -f "%U" -o "$dir.time" nice -n 10 "$bin" scan "$trace" --heuristic "$heuristic" \
      --from "$from" --to 1.00 --step 0.01 --overhead-limit 8 --memory cuda-caching --jobs 1 \
      --report "$dir" > "$dir.txt" || rc=$?
  end=$(date +%s.%N)
  [ -d "$dir" ] && mv "$dir.txt" "$dir/scan.txt"
  echo "$(basename "$dir") $(echo "$end - $start" | bc) $(tail -1 "$dir.time") $rc" >> "$out/times.txt"
  rm -f "$dir.time"
done
