#!/usr/bin/env bash
# A short differential run of the optimum against every accepted
# runtime/heuristic pair (optimal/README.md, "Warm starts"): generated
# traces (6 shapes x 2 seeds, 3 layers) at ratios 0.4, 0.6, 0.8, each solved
# with --warm-start all and a 5 s limit. Prints one line per solve: status,
# proof, operators, and the model gaps (ok runs whose schedule the model
# has no counterpart for). A "MODEL DEFECT" proof or a non-zero exit is a
# violation. The fuzzer of issue 40 item 3, with mutations, reduction and
# an archive, is `dtrcheck fuzz-optimal` (optimal/README.md).
#   bench/optimal_warm_start_sweep.sh build/bin/dtrcheck [DIR]
set -euo pipefail
dtrcheck=$(realpath "$1")
dir=${2:-$(mktemp -d)}
cd "$dir"
for shape in chain resnet unet lstm tree dag; do
  for seed in 1 2; do
    "$dtrcheck" gen --shape "$shape" --seed "$seed" --layers 3 -o "t_$shape$seed.log" >/dev/null
    for ratio in 0.4 0.6 0.8; do
      if ! out=$(nice -n 19 "$dtrcheck" optimal "t_$shape$seed.log" --ratio "$ratio" \
        --time-limit 5 --warm-start all --json); then
        echo "$shape$seed $ratio VIOLATION: exit code $?"
        continue
      fi
      echo "$out" | python3 -c "
import json, sys
j = json.load(sys.stdin)
gaps = j.get('model_gaps', [])
runtimes = sorted({g.split(' ends')[0].split(' on ')[1] for g in gaps})
print('$shape$seed $ratio', j['status'], '|', j.get('proof', ''), '|', j['nodes'], 'operators |',
      len(gaps), 'gaps', ','.join(runtimes))"
    done
  done
done
