// What trace_parse_fuzzer does with one input, as a library function, so
// that its regression inputs (fuzz/regressions/trace_parse/) replay in the
// normal build's tests, without clang.
//
// The input goes through the log parser (ParseTrace) and the instruction
// reader and writer (ReadTraceLog, TraceLogText); what parses is simulated
// briefly (two budgets, a capped schedule and a cap on runtime events, so
// one input takes milliseconds). A TraceError is the expected answer to a
// malformed log. Violations are returned, not thrown:
//   - a log the reader accepts must be written and read back unchanged;
//   - a log the parser accepts must run without a C++ exception other than
//     simrd's own outcomes (ok, oom, thrashed, a simrd assertion).
// Anything else escaping (an exception from a library, say) propagates: the
// fuzzer turns it into a crash, a test into a failure.
#ifndef DTRCHECK_FUZZ_LIB_TRACE_INPUT_CHECK_H_
#define DTRCHECK_FUZZ_LIB_TRACE_INPUT_CHECK_H_

#include <string>
#include <string_view>

namespace dtrcheck {

// Empty if the input was handled as it should be, else what went wrong.
std::string CheckTraceInput(std::string_view text);

}  // namespace dtrcheck

#endif  // DTRCHECK_FUZZ_LIB_TRACE_INPUT_CHECK_H_
