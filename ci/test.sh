#!/usr/bin/env bash
# Installs what is missing (PyTorch included), builds, and runs the whole test suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
# The capture tests need PyTorch, the ClusterFuzzLite build test clang and
# libFuzzer: install them, and fail rather than skip without them.
export DTRCHECK_TORCH=1 DTRCHECK_REQUIRE_TORCH=1 DTRCHECK_FUZZ=1 DTRCHECK_REQUIRE_CLANG=1
bash ci/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
