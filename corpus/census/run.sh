#!/usr/bin/env bash
# The published census (issue 13): the DTR paper's 7 simulated heuristics
# (RandomStorage with seeds 0, 1, 2) and the example plugin's two variants,
# on RuntimeV2EagerOptimized, on the eight public traces, ratios 0.05 to 1.00
# step 0.005 (191 budgets), at overhead limit 2 with the baseline from
# RuntimeV1 (the paper's setting: simrd_experiments/eval/pareto/run.py) and at
# overhead limit 8 with the runtime's own baseline (the study's setting).
#
#   corpus/census/run.sh DTRCHECK PLUGIN.so [SHARD N]
#
# Every sweep writes records/<trace>-<limit>[-seedS].jsonl (or .shardI of N),
# resuming from what is there: rerun the same command after an interruption.
# Sharded over machines (a job array: SHARD=$SLURM_ARRAY_TASK_ID; or GNU
# parallel: `parallel -S host1,host2 corpus/census/run.sh dtrcheck p.so {} 4
# ::: 0 1 2 3`), then merge each file's shards with `dtrcheck sweep --merge`
# (byte-identical to an unsharded run) and tabulate with census.sh.
set -euo pipefail
dtrcheck=$1
plugin=$2
shard=${3:-}
n=${4:-}
cd "$(dirname "$0")"
mkdir -p records
heuristics=DTR,DTREqClass,DTRLocal,MSPS,LRU,LargestStorage,DTRLockAware,DTRStableTie
traces="resnet32 lstm unet transformer treelstm inceptionv4 densenet121 unroll_gan"
grid=(--from 0.05 --to 1.00 --step 0.005)
for limit in 2 8; do
  baseline=RuntimeV2EagerOptimized
  [ "$limit" = 2 ] && baseline=RuntimeV1
  for t in $traces; do
    path=$("$dtrcheck" trace-path "$t")
    for set in main 0 1 2; do
      out=records/$t-limit$limit.jsonl
      args=(--heuristics "$heuristics")
      if [ "$set" != main ]; then
        out=records/$t-limit$limit-seed$set.jsonl
        args=(--heuristic RandomStorage --seed "$set")
      fi
      [ -n "$shard" ] && out=$out.shard$shard-of-$n && args+=(--shard "$shard/$n")
      resume=()
      [ -s "$out" ] && resume=(--resume "$out")
      nice -n 19 "$dtrcheck" sweep "$path" --plugin "$plugin" "${args[@]}" "${grid[@]}" \
        --overhead-limit "$limit" --baseline-runtime "$baseline" --format jsonl \
        "${resume[@]}" -o "$out" -j "${JOBS:-2}"
    done
  done
done
