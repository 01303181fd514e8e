#!/usr/bin/env bash
# Side-by-side timing of dtrcheck and simrd on the same configuration, with
# the records compared. Usage: bench/bench_vs_simrd.sh [TRACE_NAME] [RATIO]
# (default: lstm 0.3, DTR, RuntimeV2EagerOptimized). Needs simrd (oracle/README.md).
# Times are CPU seconds (user + sys) of each whole process, parse and baseline
# run included, so that a busy machine does not skew the ratio, to the
# microsecond (bench/cpu_time.py: the kernel's accounting of the child, as
# /usr/bin/time's but without its 10 ms steps, a tenth of a 0.1 s run); each
# side runs REPEAT times (default 3) and its fastest run counts, both alike.
# simrd's main run alone (wall) is shown too. Peak RSS is dtrcheck's.
# DTRCHECK=path times another dtrcheck binary (an older build, for a before
# and after on the same machine at the same time).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-lstm}; ratio=${2:-0.3}; repeat=${REPEAT:-3}
dtrcheck=${DTRCHECK:-build/bin/dtrcheck}
trace=$("$dtrcheck" trace-path "$name")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$repeat"); do
  python3 bench/cpu_time.py --append "$out/dtr.time" -- "$dtrcheck" run "$trace" --ratio "$ratio" --json > "$out/dtr.json"
  python3 bench/cpu_time.py --append "$out/simrd.time" -- python3 oracle/simrd_oracle.py run "$trace" --ratio "$ratio" --time > "$out/simrd.json"
done
python3 - "$out" "$name" "$ratio" "$repeat" <<'PY'
import json, sys
out, name, ratio, repeat = sys.argv[1:]
d = json.load(open(f"{out}/dtr.json")); s = json.load(open(f"{out}/simrd.json"))
def best(path):  # the fastest run: (cpu seconds, peak rss kB)
    runs = [tuple(map(float, l.split()[-3:])) for l in open(path) if l.strip() and l.split()[0][0].isdigit()]
    u, sy, rss = min(runs, key=lambda r: r[0] + r[1])
    return u + sy, rss
dt, drss = best(f"{out}/dtr.time"); st, _ = best(f"{out}/simrd.time")
same = all(d[k] == s[k] for k in d if k in s)
speedup = f"{st/dt:.0f}x" if dt > 0 else "unmeasurable (dtrcheck took no CPU time)"
# dtrcheck's time to the microsecond: at 0.062 s, a millisecond is over 1%,
# and a rounded figure cannot say which side of a bound it lies on.
print(f"{name} ratio {ratio}: dtrcheck {dt:.6f} s CPU (peak RSS {drss/1024:.0f} MB), "
      f"simrd {st:.2f} s CPU (main run {s['seconds']:.2f} s wall); best of {repeat} each; "
      f"speed-up {speedup}; records identical: {same}")
PY
