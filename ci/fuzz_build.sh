#!/usr/bin/env bash
# Builds what fuzzing needs: the libFuzzer targets with clang, ASan and UBSan
# in build-fuzz/ (DTRCHECK_FUZZ=ON), and the dtrcheck CLI in build/ (the
# campaign triages with it). Installs clang and its runtime if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
DTRCHECK_FUZZ=1 bash ci/deps.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
      -DDTRCHECK_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target trace_parse_fuzzer pathology_fuzzer
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target dtrcheck
