#!/usr/bin/env bash
# Side-by-side timing of dtrcheck and simrd on the same configuration, with
# the records compared. Usage: bench/bench_vs_simrd.sh [TRACE_NAME] [RATIO]
# (default: lstm 0.3, DTR, RuntimeV2EagerOptimized). Needs simrd (oracle/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-lstm}; ratio=${2:-0.3}
trace=$(build/bin/dtrcheck trace-path "$name")
t0=$(date +%s.%N)
build/bin/dtrcheck run "$trace" --ratio "$ratio" --json > /tmp/bench_dtrcheck.json
t1=$(date +%s.%N)
/usr/bin/time -f "%M" -o /tmp/bench_rss build/bin/dtrcheck run "$trace" --ratio "$ratio" --json > /dev/null
python3 oracle/simrd_oracle.py run "$trace" --ratio "$ratio" --time > /tmp/bench_simrd.json
t2=$(date +%s.%N)
python3 - "$t0" "$t1" "$t2" <<'PY'
import json, sys
t0, t1, t2 = map(float, sys.argv[1:])
d = json.load(open("/tmp/bench_dtrcheck.json")); s = json.load(open("/tmp/bench_simrd.json"))
same = all(d[k] == s[k] for k in d if k in s and k not in ("seconds",))
rss = int(open("/tmp/bench_rss").read().split()[-1]) / 1024
print(f"dtrcheck end-to-end {t1-t0:.2f} s (peak RSS {rss:.0f} MB); simrd end-to-end {t2-t1:.2f} s, "
      f"main run alone {s['seconds']:.2f} s; ratio end-to-end {(t2-t1)/(t1-t0):.1f}x; records identical: {same}")
PY
