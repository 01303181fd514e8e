#!/usr/bin/env bash
# The optimum of every archived counterexample (issue 16): runs
#   dtrcheck check-finding --optimal --record corpus/<kind>/<id>
# on each entry (both budgets solved by CBC, each schedule checked by the
# independent checker; the result kept in the manifest's "optimal" block),
# then tabulates the manifests into corpus/optimal/regret.md with the solve
# times: the benchmark that every entry of up to 40 operators is solved
# exactly within a minute per budget on this machine.
#
#   bench/optimal_archive.sh [build/bin/dtrcheck] [TIME_LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
dtrcheck=${1:-build/bin/dtrcheck}
limit=${2:-60}
# Smallest traces first: an interrupted run has solved the most entries.
entries=$(python3 -c '
import glob, json
ms = glob.glob("corpus/inversion/*/manifest.json") + glob.glob("corpus/cliff/*/manifest.json") \
    + glob.glob("corpus/pinned-oom/*/manifest.json")
print("\n".join(sorted(ms, key=lambda m: (json.load(open(m))["operators"]["after"], m))))')
for m in $entries; do
  "$dtrcheck" check-finding "$(dirname "$m")" --optimal --record --time-limit "$limit" >/dev/null
  printf '.' >&2
done
printf '\n' >&2
mkdir -p corpus/optimal
python3 bench/optimal_table.py "$dtrcheck $*" > corpus/optimal/regret.md
echo "wrote corpus/optimal/regret.md" >&2
