#!/usr/bin/env bash
# Tabulates the census records (run.sh) per overhead limit into
# census-limit<L>.md, census-limit<L>.csv and svg/<records>.svg: one census
# input per trace (and per RandomStorage seed), so that each table sums a
# policy over the eight traces at one limit.
#   corpus/census/tabulate.sh DTRCHECK PLUGIN.so
set -euo pipefail
dtrcheck=$1
plugin=$2
cd "$(dirname "$0")"
for limit in 2 8; do
  inputs=()
  for f in records/*-limit$limit.jsonl records/*-limit$limit-seed*.jsonl; do
    [ -e "$f" ] || continue
    t=$(basename "$f" .jsonl)
    inputs+=("${t%%-*}=$f")
  done
  "$dtrcheck" census --plugin "$plugin" "${inputs[@]}" --csv "census-limit$limit.csv" \
    --markdown "census-limit$limit.md" --svg-dir svg -j "${JOBS:-2}"
done
