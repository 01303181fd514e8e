#!/usr/bin/env bash
# Builds what fuzzing needs: the libFuzzer targets with clang, ASan and UBSan
# in build-fuzz/ (DTRCHECK_FUZZ=ON), and the dtrcheck CLI in build/ (the
# campaign triages with it). Installs clang and its runtime if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
DTRCHECK_FUZZ=1 bash ci/deps.sh
# The fuzz and release presets (CMakePresets.json), configured as
# ci/fuzz_smoke.sh and ci/build.sh configure them, so that none of the three
# makes the others rebuild.
cmake --preset fuzz -DDTRCHECK_WERROR=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target trace_parse_fuzzer pathology_fuzzer allocator_fuzzer
cmake --preset release -DDTRCHECK_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)" --target dtrcheck
