#!/usr/bin/env bash
# Side-by-side timing of dtrcheck and simrd on the same configuration, with
# the records compared. Usage: bench/bench_vs_simrd.sh [TRACE_NAME] [RATIO]
# (default: lstm 0.3, DTR, RuntimeV2EagerOptimized). Needs simrd (oracle/README.md).
# Times are CPU seconds (user + sys) of each whole process, parse and baseline
# run included, so that a busy machine does not skew the ratio; simrd's main
# run alone (wall) is shown too. Peak RSS is dtrcheck's.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-lstm}; ratio=${2:-0.3}
trace=$(build/bin/dtrcheck trace-path "$name")
out=$(mktemp -d)
/usr/bin/time -f "%U %S %M" -o "$out/dtr.time" build/bin/dtrcheck run "$trace" --ratio "$ratio" --json > "$out/dtr.json"
/usr/bin/time -f "%U %S %M" -o "$out/simrd.time" python3 oracle/simrd_oracle.py run "$trace" --ratio "$ratio" --time > "$out/simrd.json"
python3 - "$out" "$name" "$ratio" <<'PY'
import json, sys
out, name, ratio = sys.argv[1:]
d = json.load(open(f"{out}/dtr.json")); s = json.load(open(f"{out}/simrd.json"))
du, ds, drss = map(float, open(f"{out}/dtr.time").read().split()[-3:])
su, ss, _ = map(float, open(f"{out}/simrd.time").read().split()[-3:])
same = all(d[k] == s[k] for k in d if k in s)
print(f"{name} ratio {ratio}: dtrcheck {du+ds:.2f} s CPU (peak RSS {drss/1024:.0f} MB), "
      f"simrd {su+ss:.2f} s CPU (main run {s['seconds']:.2f} s wall); "
      f"speed-up {(su+ss)/(du+ds):.0f}x; records identical: {same}")
PY
rm -rf "$out"
