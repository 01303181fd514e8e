#!/usr/bin/env bash
# Throughput of the differential fuzzer (`dtrcheck fuzz-diff`): cases and
# configurations per second, wall clock, for a fixed set of cases (the same
# for a given seed). Usage: bench/bench_fuzz_diff.sh [CASES] [JOBS] [SEED]
# (default 300 cases, 2 jobs, seed 1; traces of at most 200 operators, 4
# configurations each). Needs simrd (oracle/README.md). Also prints the CPU
# seconds of the whole run (dtrcheck and its simrd processes), and how much of
# it simrd alone needs for the same requests, replayed through one `serve`
# process: simrd's simulation is nearly all of it.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-300}; jobs=${2:-2}; seed=${3:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# A wrapper oracle that keeps a copy of every request (for the simrd-only
# replay), one file per process: two appending to one file interleave lines.
printf '#!/bin/bash\ntee "%s/requests.$$.jsonl" | python3 "%s/oracle/simrd_oracle.py" "$@"\n' \
  "$out" "$PWD" > "$out/oracle.sh"
cmd=(build/bin/dtrcheck fuzz-diff --cases "$cases" -j "$jobs" --seed "$seed" --json
     --archive "$out/archive")
PYTHON=bash DTRCHECK_ORACLE="$out/oracle.sh" /usr/bin/time -f "%e %U %S" -o "$out/time" \
  "${cmd[@]}" > "$out/summary.json" || true
/usr/bin/time -f "%U %S" -o "$out/simrd.time" \
  bash -c "cat '$out'/requests.*.jsonl | python3 oracle/simrd_oracle.py serve > /dev/null"
python3 - "$out" "${cmd[*]}" <<'PY'
import json, sys
out, cmd = sys.argv[1:]
s = json.load(open(f'{out}/summary.json'))
wall, user, sys_ = map(float, open(f'{out}/time').read().split()[-3:])
su, ss = map(float, open(f'{out}/simrd.time').read().split()[-2:])
print(f'command: {cmd}')
print(f"{s['cases']} cases, {s['configurations']} configurations in {wall:.1f} s wall "
      f"({s['cases'] / wall:.1f} cases/s, {s['configurations'] / wall:.1f} configurations/s, "
      f"{s['jobs']} jobs); CPU {user + sys_:.1f} s, of which simrd alone needs {su + ss:.1f} s; "
      f"divergences {len(s['divergences'])}, known {s['known_divergences']}")
PY
