# Included by the top-level CMakeLists.txt when DTRCHECK_FUZZ is ON, before
# any library is defined: the fuzzers only see coverage of, and sanitizers
# only check, code compiled with these flags, and that is every library.
#
# OSS-Fuzz and ClusterFuzzLite pass their own instrumentation in $CXXFLAGS
# and the engine to link in $LIB_FUZZING_ENGINE; when that variable is set
# (fuzz/build.sh), nothing is added here. Locally the engine is clang's
# libFuzzer with ASan and UBSan.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "DTRCHECK_FUZZ needs clang: configure a separate build directory with "
                      "-DCMAKE_CXX_COMPILER=clang++ -DDTRCHECK_FUZZ=ON")
endif()
if(DEFINED ENV{LIB_FUZZING_ENGINE})
  set(DTRCHECK_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING "link flags of the fuzzing engine")
else()
  set(DTRCHECK_FUZZING_ENGINE "-fsanitize=fuzzer" CACHE STRING "link flags of the fuzzing engine")
  # Undefined behaviour aborts (no recovery), so that libFuzzer records it.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
