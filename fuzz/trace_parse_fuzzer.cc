// libFuzzer target: arbitrary bytes into simrd's log parser.
//
// Every input goes through ParseTrace (sim/parse.h) and the instruction-level
// reader and writer (io/trace_log.h, io/trace_writer.h); what parses is
// then simulated briefly (fuzz/lib/trace_input_check.h). Nothing may crash,
// hang, leak or trip a sanitizer; a TraceError is the expected answer to a
// malformed log. A broken invariant aborts with a line saying which.
// Inputs that once failed live in fuzz/regressions/trace_parse/ and replay
// in ctest (fuzz_regressions_test) in the normal build.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/lib/trace_input_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string why =
      dtrcheck::CheckTraceInput(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!why.empty()) {
    std::fprintf(stderr, "trace_parse_fuzzer: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
