#!/usr/bin/env bash
# Builds the fuzzers as ClusterFuzzLite / OSS-Fuzz's base-builder does, and
# checks what it leaves in $OUT (ctest `cflite_build`).
#
# The builder's `compile` script (google/oss-fuzz, infra/base-images/
# base-builder/compile and compile_libfuzzer) sets, for FUZZING_ENGINE=
# libfuzzer and SANITIZER=$1:
#   CC=clang CXX=clang++
#   CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only
#           -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $SANITIZER_FLAGS
#           -fsanitize=fuzzer-no-link"
#   CXXFLAGS="$CFLAGS -stdlib=libc++"           (CXXFLAGS_EXTRA)
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer, SRC=/src, OUT=/out, WORK=/work
# then runs `bash -eux $SRC/build.sh` with the project copied to
# $SRC/dtrcheck (.clusterfuzzlite/Dockerfile). This script does the same in a
# scratch directory, on this machine instead of in the image (the image is
# not reachable here), then runs each fuzzer on its seed corpus, as the
# builder's check_build does, and checks the sanitizer is linked in.
#
# It also checks that the Dockerfile installs every Debian package the build
# needs (ci/deps.sh's list), which the builder image would otherwise lack.
#
# Usage: fuzz/cflite_build_test.sh [address|undefined]   (default address)
# The builder's -stdlib=libc++ is passed as it passes it: fuzz/build.sh must
# drop it (Debian's libraries, and Debian's libFuzzer here, are built against
# libstdc++; the build fails at link time if it does not).
# Exit 77 (ctest: skipped) without clang++ or libFuzzer, unless
# DTRCHECK_REQUIRE_CLANG=1 (CI), which makes that a failure.
set -euo pipefail
src_dir="$(cd "$(dirname "$0")/.." && pwd)"
sanitizer="${1:-address}"

skip() {
  if [ "${DTRCHECK_REQUIRE_CLANG:-0}" = 1 ]; then
    echo "cflite_build: FAIL: $1 (DTRCHECK_REQUIRE_CLANG=1)" >&2
    exit 1
  fi
  echo "cflite_build: skipped: $1" >&2
  exit 77
}

# 1. The image's packages.
python3 - "$src_dir" <<'PY'
import re, sys
src = sys.argv[1]
deps = open(f'{src}/ci/deps.sh').read()
# The first packages=( ... ) list: what every build needs.
needed = set(re.search(r'packages=\(([^)]*)\)', deps).group(1).split())
needed -= {'build-essential', 'python3-attr'}  # base-builder has a compiler; attrs is the oracle's
docker = open(f'{src}/.clusterfuzzlite/Dockerfile').read()
installed = set()
for m in re.finditer(r'apt-get install -y((?:[^\n\\]|\\\n)*)', docker):
    installed |= {w for w in m.group(1).replace('\\\n', ' ').split() if not w.startswith('-')}
missing = sorted(needed - installed)
if missing:
    sys.exit(f'cflite_build: FAIL: .clusterfuzzlite/Dockerfile does not install {" ".join(missing)}')
print(f'cflite_build: the Dockerfile installs all {len(needed)} packages ci/deps.sh lists')
PY

# 2. The build, with the builder's environment and nothing of ours.
command -v clang++ >/dev/null || skip "clang++ not installed"
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' \
  >"$probe/p.cc"
clang++ -fsanitize=fuzzer "$probe/p.cc" -o "$probe/p" 2>/dev/null ||
  skip "clang++ cannot link a libFuzzer target (packages clang, libclang-rt-14-dev)"

case "$sanitizer" in
  address) sanitizer_flags="-fsanitize=address -fsanitize-address-use-after-scope" ;;
  undefined) sanitizer_flags="-fsanitize=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr -fno-sanitize-recover=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound,vptr" ;;
  *) echo "usage: $0 [address|undefined]" >&2; exit 2 ;;
esac

root="${DTRCHECK_CFLITE_DIR:-$probe}"
SRC="$root/src" OUT="$root/out" WORK="$root/work"
mkdir -p "$SRC/dtrcheck" "$OUT" "$WORK"
# COPY . $SRC/dtrcheck: the tracked files (a build tree would not be in a
# fresh checkout either).
git -C "$src_dir" ls-files -z | (cd "$src_dir" && xargs -0 cp --parents -t "$SRC/dtrcheck")
cp "$src_dir/.clusterfuzzlite/build.sh" "$SRC/build.sh"
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $sanitizer_flags -fsanitize=fuzzer-no-link"
start=$(date +%s)
(cd "$SRC/dtrcheck" && env -i PATH="$PATH" HOME="$HOME" SRC="$SRC" OUT="$OUT" WORK="$WORK" \
   CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags -stdlib=libc++" \
   LIB_FUZZING_ENGINE=-fsanitize=fuzzer FUZZING_ENGINE=libfuzzer SANITIZER="$sanitizer" \
   FUZZING_LANGUAGE=c++ ARCHITECTURE=x86_64 bash -eux "$SRC/build.sh") >"$root/build.log" 2>&1 || {
  tail -30 "$root/build.log" >&2
  echo "cflite_build: FAIL: \$SRC/build.sh failed (log above)" >&2
  exit 1
}
echo "cflite_build: built with SANITIZER=$sanitizer in $(($(date +%s) - start)) s"

# 3. What the builder expects in $OUT, and fuzzers that run.
failed=0
for target in trace_parse_fuzzer pathology_fuzzer; do
  for f in "$target" "$target.dict" "${target}_seed_corpus.zip"; do
    [ -s "$OUT/$f" ] || { echo "cflite_build: FAIL: \$OUT/$f missing" >&2; failed=1; }
  done
  [ -x "$OUT/$target" ] || continue
  # grep -c reads all of nm's output (grep -q would leave nm to SIGPIPE, a
  # failure under pipefail).
  if [ "$sanitizer" = address ] && [ "$(nm "$OUT/$target" | grep -c __asan_report)" = 0 ]; then
    echo "cflite_build: FAIL: $target is not built with AddressSanitizer" >&2
    failed=1
  fi
  seeds="$root/seeds-$target"
  mkdir -p "$seeds"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$OUT/${target}_seed_corpus.zip" "$seeds"
  n_seeds=$(ls "$seeds" | wc -l)
  # check_build runs each target briefly; every seed once, then 200 mutations.
  if DTRCHECK_FUZZ_ON_FINDING=print timeout 300 "$OUT/$target" -runs=200 \
      -dict="$OUT/$target.dict" "$seeds" >"$root/run-$target.log" 2>&1; then
    echo "cflite_build: $target ran its $n_seeds seeds and 200 inputs more"
  else
    tail -20 "$root/run-$target.log" >&2
    echo "cflite_build: FAIL: $target failed on its seed corpus" >&2
    failed=1
  fi
done
exit $failed
