#!/usr/bin/env bash
# Fuzz smoke run: builds both libFuzzer targets with clang, ASan and UBSan
# (build-fuzz/, installing clang if missing), runs the fuzz-case and parse
# regression tests in that build, and runs each fuzzer briefly from its seed
# corpus in a scratch directory.
#   trace_parse_fuzzer  fails on any crash, leak, timeout or sanitizer report;
#   pathology_fuzzer    prints pathologies (expected, DTRCHECK_FUZZ_ON_FINDING
#                       =print) and fails on a crash, or if it reported none.
#   allocator_fuzzer    the allocator models against their references; fails
#                       on any difference; a quarter of the time (it is cheap
#                       and its long runs are in fuzz/RESULTS.md).
# Usage: ci/fuzz_smoke.sh [SECONDS_PER_TARGET]   (default 60, at most 120)
# The build directory is $DTRCHECK_FUZZ_BUILD_DIR (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
if [ "$seconds" -gt 120 ]; then seconds=120; fi
bdir="${DTRCHECK_FUZZ_BUILD_DIR:-build-fuzz}"

DTRCHECK_FUZZ=1 bash ci/deps.sh
# The fuzz preset of CMakePresets.json, warnings as errors (as ci/fuzz_build.sh).
cmake --preset fuzz -B "$bdir" -DDTRCHECK_WERROR=ON >/dev/null
cmake --build "$bdir" -j "$(nproc)" --target trace_parse_fuzzer pathology_fuzzer allocator_fuzzer fuzz_case_test \
      fuzz_regressions_test
# clang must decode and generate exactly what the GCC-built CLI triages with
# (golden digests), and the parse regressions must pass under the sanitizers.
"$bdir/bin/fuzz_case_test" --gtest_brief=1
"$bdir/bin/fuzz_regressions_test" --gtest_brief=1

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() {  # TARGET LOG [extra flags...]: a fresh corpus, the seeds, the dictionary
  local target="$1" log="$2"
  shift 2
  mkdir -p "$work/$target" "$work/artifacts"
  timeout $((seconds + 120)) "$bdir/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=4096 -artifact_prefix="$work/artifacts/" -dict="fuzz/$target.dict" "$@" \
    "$work/$target" "fuzz/${target}_seed_corpus" >"$log" 2>&1
}
report() {  # TARGET LOG STATUS
  local runs
  runs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$2" | grep -o '[0-9]*$' || echo '?')"
  echo "fuzz_smoke: $1: $runs executions in ${seconds} s, exit $3"
}

status=0
run trace_parse_fuzzer "$work/parse.log" -timeout=30 || status=$?
report trace_parse_fuzzer "$work/parse.log" "$status"
if [ "$status" != 0 ]; then
  tail -60 "$work/parse.log"
  exit 1
fi

status=0
DTRCHECK_FUZZ_ON_FINDING=print run pathology_fuzzer "$work/pathology.log" -max_len=32 -len_control=0 \
  -timeout=300 -report_slow_units=600 || status=$?
report pathology_fuzzer "$work/pathology.log" "$status"
findings="$(grep -c '^dtrcheck-finding:' "$work/pathology.log" || true)"
echo "fuzz_smoke: pathology_fuzzer: $findings distinct pathologies reported"
grep '^dtrcheck-finding:' "$work/pathology.log" | head -5 || true
if [ "$status" != 0 ]; then
  tail -60 "$work/pathology.log"
  exit 1
fi
if [ "$findings" = 0 ]; then
  echo "fuzz_smoke: pathology_fuzzer reported no pathology in ${seconds} s" >&2
  exit 1
fi

quarter=$((seconds / 4 > 10 ? seconds / 4 : 10))
mkdir -p "$work/allocator_fuzzer"
status=0
timeout $((quarter + 120)) "$bdir/bin/allocator_fuzzer" -max_total_time="$quarter" -print_final_stats=1 \
  -rss_limit_mb=4096 -artifact_prefix="$work/artifacts/" "$work/allocator_fuzzer" \
  fuzz/allocator_fuzzer_seed_corpus >"$work/allocator.log" 2>&1 || status=$?
runs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/allocator.log" | grep -o '[0-9]*$' || echo '?')"
echo "fuzz_smoke: allocator_fuzzer: $runs executions in ${quarter} s, exit $status"
if [ "$status" != 0 ]; then
  tail -60 "$work/allocator.log"
  exit 1
fi
