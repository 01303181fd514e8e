#!/usr/bin/env bash
# Configures and builds dtrcheck into build/ (the CLI lands in build/bin/dtrcheck).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"
