#!/usr/bin/env bash
# The census under the allocator (issue 43, item 3): DTR, DTREqClass, MSPS and
# the address-aware ports MegEngineDTR, DTE and Coop (../../policies/) on
# RuntimeV2EagerOptimized, under --memory cuda-caching and --memory arena,
# over the eight public traces and the seven captured models, ratios 0.05 to
# 1.00 step 0.005 (191 budgets), overhead limit 2 (the DTR paper's limit) with
# the runtime's own baseline. Limit 2, not ../census/'s 8: a thrashed run
# ends when its recomputation reaches the limit, and at limit 8 the
# address-aware ports thrash often (MegEngineDTR under cuda-caching: 67 of
# LSTM's first 109 budgets, in 25 minutes of a loaded machine), so limit 8
# costs several times the CPU for runs no one would train with. The byte-sum
# reference (simrd's model) is swept for the three policies that can run
# under it.
#
#   corpus/census-memory/run.sh DTRCHECK [SHARD N]
#
# Every sweep writes records/<trace>-<memory>.jsonl (or .shardI-of-N),
# resuming from what is there: rerun the same command after an interruption.
# Shards are merged with `dtrcheck sweep --merge` (byte-identical to an
# unsharded run); tabulate.sh makes the tables and plots.
set -euo pipefail
dtrcheck=$1
shard=${2:-}
n=${3:-}
cd "$(dirname "$0")"
mkdir -p records
traces="resnet32 lstm unet transformer treelstm inceptionv4 densenet121 unroll_gan
        resnet50 mobilenet_v3_large vit_b_16 convnext_tiny unet_bn gpt2_small lstm_lm"
grid=(--from 0.05 --to 1.00 --step 0.005)
for t in $traces; do
  for memory in cuda-caching arena bytes; do
    heuristics=DTR,DTREqClass,MSPS,MegEngineDTR,DTE,Coop
    [ "$memory" = bytes ] && heuristics=DTR,DTREqClass,MSPS
    out=records/$t-$memory.jsonl
    args=()
    [ -n "$shard" ] && out=$out.shard$shard-of-$n && args+=(--shard "$shard/$n")
    [ -s "$out" ] && args+=(--resume "$out")
    nice -n "${NICE:-10}" "$dtrcheck" sweep "$t" --memory "$memory" --heuristics "$heuristics" \
      "${grid[@]}" --overhead-limit 2 --format jsonl "${args[@]}" -o "$out" -j "${JOBS:-2}"
  done
done
