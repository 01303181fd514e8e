#!/bin/bash -eu
# Builds the fuzzers for OSS-Fuzz or ClusterFuzzLite (also usable by hand).
#
# Reads the variables those builders set: $CXX and $CXXFLAGS (the compiler
# and its sanitizer/coverage flags), $LIB_FUZZING_ENGINE (the engine to link,
# e.g. -fsanitize=fuzzer), $OUT (where binaries go); $WORK for the build tree
# if set. Writes, per target, $OUT/<target>, $OUT/<target>.dict and
# $OUT/<target>_seed_corpus.zip. The project's dependencies (cmake, GoogleTest,
# RapidCheck, nlohmann-json, CLI11, Boost, OpenSSL; ci/deps.sh) must be
# installed in the builder image (.clusterfuzzlite/Dockerfile).
#
# By hand, with clang's libFuzzer:
#   CXX=clang++ CXXFLAGS="-fsanitize=address,undefined,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out bash fuzz/build.sh
SRC_DIR="$(cd "$(dirname "$0")/.." && pwd)"
: "${CXX:?set CXX}" "${OUT:?set OUT}"
export LIB_FUZZING_ENGINE="${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}"
BUILD="${WORK:-/tmp}/dtrcheck-fuzz-build"
# The builders compile C++ against libc++ (CXXFLAGS ends in -stdlib=libc++),
# but the Debian libraries the fuzzers link (simdjson, CBC, OpenSSL's C++
# users, RapidCheck) are built against libstdc++: mixing the two fails at
# link time (std::string has another ABI). libFuzzer itself keeps its own
# private libc++, so the targets use libstdc++ like everything they link.
CXXFLAGS="${CXXFLAGS:-}"
CXXFLAGS="${CXXFLAGS//-stdlib=libc++/}"
mkdir -p "$OUT"

# With LIB_FUZZING_ENGINE set, fuzz/instrument.cmake adds no flags of its
# own: the builder's $CXXFLAGS instrument every library.
cmake -S "$SRC_DIR" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CXX" \
      -DCMAKE_CXX_FLAGS="${CXXFLAGS:-}" -DDTRCHECK_FUZZ=ON
cmake --build "$BUILD" -j "$(nproc)" --target trace_parse_fuzzer pathology_fuzzer

for target in trace_parse_fuzzer pathology_fuzzer; do
  cp "$BUILD/bin/$target" "$OUT/"
  cp "$SRC_DIR/fuzz/$target.dict" "$OUT/$target.dict"
  rm -f "$OUT/${target}_seed_corpus.zip"
  python3 - "$SRC_DIR/fuzz/${target}_seed_corpus" "$OUT/${target}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
PY
done
