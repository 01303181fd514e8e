#!/usr/bin/env bash
# How far DTR is from optimal on real models (issue 40, item 4): for the
# eight public traces and the seven captured models at ratios 0.3, 0.5 and
# 0.7, one command each,
#   dtrcheck optimal TRACE --ratio R --time-limit LIMIT --warm-start all --json
# which reports DTR's run (RuntimeV2EagerOptimized), the cheapest schedule
# found (every accepted pair's ok run, checked, and the engines' schedules)
# and the best lower bound proven for every schedule (the search's where it
# runs, else the live-memory bound: optimal/live_memory_bound.h).
# Each point's JSON goes to corpus/optimal/models/records/TRACE-R.json; a
# point already recorded is skipped, so an interrupted run resumes. Then
# bench/optimal_models_table.py writes corpus/optimal/models/README.md.
#
#   bench/optimal_models.sh [build/bin/dtrcheck] [TIME_LIMIT_SECONDS=600] [JOBS=2]
set -euo pipefail
cd "$(dirname "$0")/.."
dtrcheck=${1:-build/bin/dtrcheck}
limit=${2:-600}
jobs=${3:-2}
out=corpus/optimal/models/records
mkdir -p "$out"
# The traces CBC's program is built for (the slow points) first, so that
# the two jobs share them.
traces="unet resnet32 unet_bn resnet50 mobilenet_v3_large inceptionv4 convnext_tiny vit_b_16
        gpt2_small densenet121 transformer lstm_lm unroll_gan treelstm lstm"
points=()
for t in $traces; do
  for r in 0.3 0.5 0.7; do
    [ -s "$out/$t-$r.json" ] || points+=("$t $t $r")
  done
done
echo "${#points[@]} points to run, $jobs at a time, --time-limit $limit" >&2
# Each point: bench/optimal_point.py (the command, timed, and its record).
[ ${#points[@]} -eq 0 ] || printf '%s\n' "${points[@]}" | xargs -P "$jobs" -L 1 \
  python3 bench/optimal_point.py "$dtrcheck" "$limit" "$out"
python3 bench/optimal_models_table.py "$dtrcheck" "$limit" > corpus/optimal/models/README.md
echo "wrote corpus/optimal/models/README.md" >&2
