#!/usr/bin/env bash
# Configures and builds dtrcheck into build/ (the CLI lands in build/bin/dtrcheck):
# the release preset of CMakePresets.json (Ninja, Release, compile_commands.json)
# with warnings as errors, as CI builds; arguments go to the configure step
# (-DDTRCHECK_WERROR=OFF builds with a compiler that warns about new things).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
cmake --preset release -DDTRCHECK_WERROR=ON "$@" >/dev/null
cmake --build --preset release -j "$(nproc)"
