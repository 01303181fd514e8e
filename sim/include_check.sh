#!/bin/bash
# The simulator core depends on nothing else in dtrcheck: no file of sim/
# but its tests (*_test.cc) includes a dtrcheck header outside sim/.
# Usage: sim/include_check.sh [SIM_DIR]
set -euo pipefail
dir=${1:-$(dirname "$0")}
bad=$(grep -n '^#include "' "$dir"/*.h "$dir"/*.cc | grep -v '_test\.cc:' | grep -v '#include "sim/' || true)
if [ -n "$bad" ]; then
  echo "sim/ includes headers from above the core:"
  echo "$bad"
  exit 1
fi
echo "sim/: every include is of sim/ or a system or library header"
