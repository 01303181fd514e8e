#!/usr/bin/env bash
# Live spot check on the six larger public traces, where simrd needs minutes
# per run: DTR / RuntimeV2EagerOptimized at ratio 0.3 with --overhead-limit
# 1.05 (the run thrashes early), simrd against `dtrcheck run --json`, field by
# field. Needs simrd (oracle/README.md) and a build (build/bin/dtrcheck).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for n in transformer densenet121 inceptionv4 unroll_gan treelstm lstm; do
  t=$(build/bin/dtrcheck trace-path "$n")
  python3 oracle/simrd_oracle.py run "$t" --ratio 0.3 --overhead-limit 1.05 > "$tmp/simrd.json"
  build/bin/dtrcheck run "$t" --ratio 0.3 --overhead-limit 1.05 --json > "$tmp/dtr.json"
  python3 - "$n" "$tmp" <<'PY'
import json, sys
n, tmp = sys.argv[1:]
s = json.load(open(f"{tmp}/simrd.json")); d = json.load(open(f"{tmp}/dtr.json"))
diff = [k for k in d if k in s and d[k] != s[k]]
print(n, s["status"], "clock", s["clock"], "evictions", s["evictions"], "identical" if not diff else f"DIFF {diff}")
sys.exit(1 if diff else 0)
PY
done
