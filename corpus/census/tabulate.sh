#!/usr/bin/env bash
# Tabulates the census records (run.sh) into census.md, census.csv and
# svg/<trace>-<limit>.svg: one census input per trace and limit, with the
# RandomStorage seeds as inputs of their own.
#   corpus/census/tabulate.sh DTRCHECK PLUGIN.so
set -euo pipefail
dtrcheck=$1
plugin=$2
cd "$(dirname "$0")"
inputs=()
for f in records/*.jsonl; do
  t=$(basename "$f" .jsonl)
  inputs+=("${t%%-*}=$f")
done
"$dtrcheck" census --plugin "$plugin" "${inputs[@]}" --csv census.csv --markdown census.md \
  --svg-dir svg -j "${JOBS:-2}"
