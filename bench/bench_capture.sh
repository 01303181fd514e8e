#!/usr/bin/env bash
# How long a capture takes: `python3 -m capture model NAME --batch B` (default vit_b_16 at
# batch 2), REPEAT times (default 3); prints each run's wall and CPU seconds (user + sys,
# model construction and interpreter start included) and the fastest, and checks that every
# run wrote the same log. Needs PyTorch (capture/README.md).
#
#   bench/bench_capture.sh [NAME] [BATCH]
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-vit_b_16}; batch=${2:-2}; repeat=${REPEAT:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$repeat"); do
  /usr/bin/time -f "%e %U %S %M" -a -o "$out/time" \
    capture/dtrcheck-capture model "$name" --batch "$batch" -o "$out/run$i.log" --dtrcheck none \
    2> "$out/run$i.err"
done
python3 - "$out" "$name" "$batch" "$repeat" <<'PY'
import hashlib, sys
out, name, batch, repeat = sys.argv[1:]
runs = [tuple(map(float, l.split())) for l in open(out + '/time') if l.strip()[0].isdigit()]
digests = {hashlib.sha256(open('%s/run%d.log' % (out, i + 1), 'rb').read()).hexdigest()
           for i in range(int(repeat))}
for i, (wall, user, sys_, rss) in enumerate(runs):
    print('run %d: %.1f s wall, %.1f s CPU, peak RSS %.0f MB' % (i + 1, wall, user + sys_,
                                                                 rss / 1024))
best = min(runs)
print('capture %s at batch %s: fastest %.1f s wall (%.1f s CPU) of %s runs; logs identical: %s'
      % (name, batch, best[0], best[1] + best[2], repeat, 'yes' if len(digests) == 1 else 'NO'))
PY
