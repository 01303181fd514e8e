#!/usr/bin/env bash
# Tabulates the records of run.sh, one census per memory model:
# census-<model>.md and .csv (every trace and policy, then the per-policy
# sums) and svg/<trace>-<model>.svg (every policy's overhead curve), then
# census_tables.py's README tables and floors plot.
#   corpus/census-memory/tabulate.sh DTRCHECK
set -euo pipefail
dtrcheck=$1
cd "$(dirname "$0")"
traces="resnet32 lstm unet transformer treelstm inceptionv4 densenet121 unroll_gan
        resnet50 mobilenet_v3_large vit_b_16 convnext_tiny unet_bn gpt2_small lstm_lm"
for memory in cuda-caching arena bytes; do
  inputs=()
  for t in $traces; do
    f=records/$t-$memory.jsonl
    [ -e "$f" ] && inputs+=("$t=$f")
  done
  "$dtrcheck" census "${inputs[@]}" --memory "$memory" --csv "census-$memory.csv" \
    --markdown "census-$memory.md" --svg-dir svg -j "${JOBS:-2}"
done
# The floors plot needs matplotlib (Debian's python3-matplotlib belongs to
# /usr/bin/python3, which need not be the first python3 on PATH).
python=python3
python3 -c 'import matplotlib' 2>/dev/null || python=/usr/bin/python3
"$python" census_tables.py > summary.md
