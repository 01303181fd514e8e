#!/usr/bin/env bash
# Configures and builds dtrcheck into build/ (the CLI lands in build/bin/dtrcheck):
# the release preset of CMakePresets.json (Ninja, Release, compile_commands.json)
# with warnings as errors, as CI builds; arguments go to the configure step
# (-DDTRCHECK_WERROR=OFF builds with a compiler that warns about new things).
#
# The build is profile-guided (CMakeLists.txt, DTRCHECK_PROFILE): dtrcheck is
# first built instrumented, ci/pgo_train.sh runs it, and everything is then
# built with the profile. DTRCHECK_PGO=0 builds once, without a profile
# (faster; `dtrcheck run` takes some 5% more instructions on LSTM).
# DTRCHECK_TARGETS (space-separated) builds only those targets, e.g. dtrcheck.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/deps.sh
jobs=$(nproc)
if [ "${DTRCHECK_PGO:-1}" = 1 ]; then
  cmake --preset release -DDTRCHECK_WERROR=ON -DDTRCHECK_PROFILE=generate "$@" >/dev/null
  cmake --build --preset release -j "$jobs" --target dtrcheck
  rm -rf build/pgo
  bash ci/pgo_train.sh build/bin/dtrcheck
  cmake --preset release -DDTRCHECK_WERROR=ON -DDTRCHECK_PROFILE=use "$@" >/dev/null
else
  cmake --preset release -DDTRCHECK_WERROR=ON -DDTRCHECK_PROFILE= "$@" >/dev/null
fi
targets=()
for t in ${DTRCHECK_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build --preset release -j "$jobs" "${targets[@]}"
