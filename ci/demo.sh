#!/usr/bin/env bash
# Installs what is missing, builds, and shows the published feasibility
# inversion on the public ResNet-32 trace: ok at ratio 0.101, oom at 0.104.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CLI alone, without the profile-guided second build: a few minutes
# sooner (ci/test.sh builds everything, profile-guided).
DTRCHECK_PGO=0 DTRCHECK_TARGETS=dtrcheck bash ci/build.sh
trace=$(build/bin/dtrcheck trace-path resnet32)
for ratio in 0.101 0.104; do
  echo "== dtrcheck run resnet32 --ratio $ratio --overhead-limit 8"
  build/bin/dtrcheck run "$trace" --ratio "$ratio" --overhead-limit 8
done
