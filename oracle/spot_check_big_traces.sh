#!/usr/bin/env bash
# Live spot check on the six larger public traces, where simrd needs minutes
# per run: DTR / RuntimeV2EagerOptimized at ratio 0.3 with --overhead-limit
# 1.05 (the run thrashes early), simrd against dtrcheck through `dtrcheck
# diff` (the C++ simrd client; every parity field and the eviction stream).
# Needs simrd (oracle/README.md) and a build (build/bin/dtrcheck).
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0
for n in transformer densenet121 inceptionv4 unroll_gan treelstm lstm; do
  t=$(build/bin/dtrcheck trace-path "$n")
  echo -n "$n: "
  build/bin/dtrcheck diff "$t" --ratio 0.3 --overhead-limit 1.05 || failed=1
done
exit $failed
