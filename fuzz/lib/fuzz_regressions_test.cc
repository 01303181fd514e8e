// Inputs that once broke trace_parse_fuzzer (fuzz/regressions/trace_parse/,
// the libFuzzer artifacts as they were found) must now be handled: parsed or
// rejected with a TraceError, never an escaping exception or a broken
// invariant. Same check as the fuzzer (fuzz/lib/trace_input_check.h).
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "fuzz/lib/trace_input_check.h"
#include "sim/parse.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzRegressions, TraceParseInputsAreHandled) {
  fs::path dir = fs::path(DTRCHECK_SOURCE_DIR) / "fuzz" / "regressions" / "trace_parse";
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string text = Read(entry.path());
    std::string why;
    EXPECT_NO_THROW(why = CheckTraceInput(text)) << entry.path();
    EXPECT_EQ(why, "") << entry.path();
    ++count;
  }
  EXPECT_GT(count, 0u);
}

// The first bug trace_parse_fuzzer found: a JSON number too large for a
// double made the JSON library throw out_of_range, which escaped both log
// readers.
TEST(FuzzRegressions, AnOverflowingNumberIsATraceError) {
  const std::string line = "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":7E7777777}\n";
  EXPECT_THROW(ParseTrace(line, "t.log", ParseOptions{false}), TraceError);
  try {
    ParseTrace(line, "t.log", ParseOptions{false});
  } catch (const TraceError& e) {
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(e.message().find("bad JSON"), std::string::npos) << e.message();
  }
}

// The second: a MUTATE that mutates nothing made an op without outputs,
// and the runtime read past its tensors (simrd raises IndexError there).
TEST(FuzzRegressions, AMutateOfNothingIsATraceError) {
  const std::string log =
      "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n"
      "{\"ARGS\":[],\"INSTRUCTION\":\"MUTATE\",\"MUTATE\":[],\"NAME\":\"\",\"TIME\":\"6\"}\n";
  try {
    ParseTrace(log, "t.log");
    FAIL() << "parsed";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.message(), "MUTATE without mutated arguments");
  }
}

}  // namespace
}  // namespace dtrcheck
