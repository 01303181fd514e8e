#!/usr/bin/env bash
# The training run of the profile-guided build (ci/build.sh): runs an
# instrumented dtrcheck (built with -DDTRCHECK_PROFILE=generate) on a fixed
# set of workloads, so that its profile (.gcda files, written as each process
# exits) tells the optimizing build which branches and calls are hot.
# Usage: ci/pgo_train.sh DTRCHECK_BINARY
#
# The set: `run` on six public traces (those found: `dtrcheck trace-path`)
# with three heuristics at two budget ratios, a `sweep`, and synthetic traces
# of every `dtrcheck gen` shape (always available, so a machine without the
# public traces still trains). inceptionv4, unroll_gan and the captured
# traces are left out on purpose: bench/RESULTS.md times them as held-out
# workloads, to show what the profile does for what it was not trained on.
set -euo pipefail
cd "$(dirname "$0")/.."
dtrcheck=${1:?usage: ci/pgo_train.sh DTRCHECK_BINARY}
# A run that thrashes (LRU does on some shapes) stops at 4x the baseline's
# compute instead of going on for minutes; it is a record like any other.
limit="--overhead-limit 4"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for name in lstm treelstm transformer resnet32 unet densenet121; do
  trace=$("$dtrcheck" trace-path "$name" 2>/dev/null) || continue
  for heuristic in DTR MSPS DTREqClass; do
    for ratio in 0.3 0.6; do
      "$dtrcheck" run "$trace" --ratio "$ratio" --heuristic "$heuristic" $limit --json >/dev/null
    done
  done
done
if trace=$("$dtrcheck" trace-path resnet32 2>/dev/null); then
  "$dtrcheck" sweep "$trace" --from 0.2 --to 1.0 --step 0.1 --jobs 1 --format jsonl -o "$work/sweep.jsonl"
fi

seed=1
for shape_layers in chain:200 resnet:24 unet:5 lstm:40 tree:6 dag:200; do
  shape=${shape_layers%:*}
  "$dtrcheck" gen --shape "$shape" --seed "$seed" --layers "${shape_layers#*:}" --width 3 \
    -o "$work/$shape.log"
  for heuristic in DTR MSPS LRU; do
    for runtime in RuntimeV2EagerOptimized RuntimeV2Optimized; do
      "$dtrcheck" run "$work/$shape.log" --runtime "$runtime" --heuristic "$heuristic" \
        --ratio 0.4 $limit --json >/dev/null
    done
  done
  seed=$((seed + 1))
done
