#!/usr/bin/env bash
# Issue 40, item 4's first target: every trace of up to 150 operators,
# proven optimal or within 1% of a proven bound, in 60 s. A sample: ten
# generated traces of 49 to 150 operators (each shape of `dtrcheck gen`,
# the seed 1), at ratios 0.3, 0.5 and 0.7, one command each,
#   dtrcheck optimal TRACE --ratio R --time-limit LIMIT --warm-start all --json
# Records go to corpus/optimal/small/records/NAME-R.json (a point already
# recorded is skipped); bench/optimal_models_table.py then writes
# corpus/optimal/small/README.md.
#
#   bench/optimal_small.sh [build/bin/dtrcheck] [TIME_LIMIT_SECONDS=60] [JOBS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
dtrcheck=${1:-build/bin/dtrcheck}
limit=${2:-60}
jobs=${3:-2}
out=corpus/optimal/small/records
traces=corpus/optimal/small/traces  # generated, not committed (.gitignore)
mkdir -p "$out" "$traces"
# shape/layers: operators
shapes="chain/6 chain/20 resnet/3 resnet/8 unet/2 unet/3 lstm/3 lstm/4 tree/4 dag/40"
points=()
for s in $shapes; do
  name=${s%/*}-${s#*/}
  "$dtrcheck" gen --shape "${s%/*}" --layers "${s#*/}" --seed 1 -o "$traces/$name.log" >/dev/null
  for r in 0.3 0.5 0.7; do
    [ -s "$out/$name-$r.json" ] || points+=("$traces/$name.log $name $r")
  done
done
echo "${#points[@]} points to run, $jobs at a time, --time-limit $limit" >&2
# Each point: bench/optimal_point.py (the command, timed, and its record).
[ ${#points[@]} -eq 0 ] || printf '%s\n' "${points[@]}" | xargs -P "$jobs" -L 1 \
  python3 bench/optimal_point.py "$dtrcheck" "$limit" "$out"
python3 bench/optimal_models_table.py "$dtrcheck" "$limit" corpus/optimal/small \
  > corpus/optimal/small/README.md
echo "wrote corpus/optimal/small/README.md" >&2
