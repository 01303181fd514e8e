#!/bin/bash
# Scans every public (or captured) trace with `dtrcheck scan` (DTR,
# RuntimeV2EagerOptimized, overhead limit 8, ratios 0.10 (0.05) to 1.00 step 0.001) and writes one report
# directory per trace plus an index, README.md, with the wall-clock and CPU
# time of each scan. Findings are not bisected by default: on the LSTM-like
# traces there are dozens, and each bisection step of a thrashing run costs
# seconds; SCAN_FLAGS=--refine adds it.
#
#   ci/scan_corpus.sh [DTRCHECK_BINARY] [OUT_DIR]
#   SCAN_SET=captured ci/scan_corpus.sh      # the captured traces (traces/captured/),
#                                            # ratios 0.05 to 1.00, into corpus/scan-report-captured
#
# Defaults: build/bin/dtrcheck and corpus/scan-report. The traces are found
# as `dtrcheck trace-path NAME` finds them (DTRCHECK_TRACES, ../shared/traces).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
set_name=${SCAN_SET:-public}
case "$set_name" in
  public) manifest=$here/traces/manifest.json; from=${SCAN_FROM:-0.10}
          default_out=$here/corpus/scan-report; title="the public traces" ;;
  captured) manifest=$here/traces/captured/manifest.json; from=${SCAN_FROM:-0.05}
            default_out=$here/corpus/scan-report-captured; title="the captured traces" ;;
  *) echo "SCAN_SET must be public or captured" >&2; exit 2 ;;
esac
bin=${1:-$here/build/bin/dtrcheck}
out=${2:-$default_out}
jobs=${JOBS:-2}
flags=${SCAN_FLAGS:-}
mkdir -p "$out"
mapfile -t names < <(python3 -c 'import json,sys; [print(t["name"]) for t in json.load(open(sys.argv[1]))["traces"]]' "$manifest")  # manifest order
index="$out/README.md"
{
  echo "# Pathology scan of $title"
  echo
  echo "\`dtrcheck scan TRACE --from $from --to 1.00 --step 0.001 --overhead-limit 8 $flags --jobs $jobs --report DIR\`"
  echo "(DTR on RuntimeV2EagerOptimized; regime cliffs: overheads >= 2x apart within 0.1% of peak;"
  echo "overhead rises: a bigger budget's overhead > 1.5x a smaller one's). Produced by ci/scan_corpus.sh."
  echo
  echo "| trace | budgets | ok | oom | thrashed | inversions | cliffs | overhead rises | pinned-frontier OOMs | wall s | CPU s |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} > "$index.partial"
total_wall=0
for name in "${names[@]}"; do
  trace=$("$bin" trace-path "$name" 2>/dev/null) || { echo "skip $name: not found" >&2; continue; }
  dir="$out/$name"
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$out/.time" "$bin" scan "$trace" --from "$from" --to 1.00 --step 0.001 \
      --overhead-limit 8 $flags --jobs "$jobs" --report "$dir" > "$dir.txt"
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc)
  cpu=$(awk '{print $1 + $2}' "$out/.time")
  mv "$dir.txt" "$dir/scan.txt"
  python3 - "$dir/scan.json" "$name" "$wall" "$cpu" >> "$index.partial" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); c = j['status_counts']
kinds = [f['kind'] for f in j['findings']]
pinned = sum(1 for f in j['findings'] if f['failure'] and f['failure']['pinned_frontier_oom'])
print('| [%s](%s/report.md) | %d | %d | %d | %d | %d | %d | %d | %d | %.0f | %.0f |' % (
    sys.argv[2], sys.argv[2], j['points'], c.get('ok', 0), c.get('oom', 0), c.get('thrashed', 0),
    kinds.count('inversion'), kinds.count('cliff'), kinds.count('overhead-rise'), pinned,
    float(sys.argv[3]), float(sys.argv[4])))
PY
  total_wall=$(echo "$total_wall + $wall" | bc)
  echo "$name: ${wall}s wall, ${cpu}s CPU" >&2
done
rm -f "$out/.time"
{
  echo
  echo "Total wall-clock time: $(printf %.0f "$total_wall") s on $(nproc) cores ($(uname -m)); wall times"
  echo "depend on whatever else the machine was running, CPU times much less."
} >> "$index.partial"
mv "$index.partial" "$index"
