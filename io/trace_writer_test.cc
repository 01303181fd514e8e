#include "io/trace_writer.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "io/trace_log.h"
#include "sim/parse.h"
#include "traces/locate.h"

namespace dtrcheck {
namespace {

void ExpectSameGraph(const Graph& a, const Graph& b) {
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const GOp &x = a.ops[i], &y = b.ops[i];
    EXPECT_TRUE(x.cost == y.cost && x.size == y.size && x.alias == y.alias && x.args == y.args &&
                x.result == y.result && x.name == y.name && x.bwd == y.bwd)
        << "op " << i << " (" << x.name << " vs " << y.name << ")";
  }
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const GTensor &x = a.tensors[i], &y = b.tensors[i];
    EXPECT_TRUE(x.op == y.op && x.index == y.index && x.name == y.name &&
                x.storage_size == y.storage_size)
        << "tensor " << i << " (" << x.name << " vs " << y.name << ")";
  }
  ASSERT_EQ(a.schedule.size(), b.schedule.size());
  for (size_t i = 0; i < a.schedule.size(); ++i)
    EXPECT_TRUE(a.schedule[i].kind == b.schedule[i].kind &&
                a.schedule[i].target == b.schedule[i].target)
        << "schedule command " << i;
  EXPECT_TRUE(a.compute == b.compute);
  EXPECT_TRUE(a.output_ram == b.output_ram);
  EXPECT_EQ(a.outputs, b.outputs);
}

// Every instruction kind, in simrd's own format: JSON keys sorted, numbers as
// strings. Written by hand in the format of the public traces.
const char* kAllKinds =
    R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","MEMORY":"64","NAME":"w"}
{"DST":"w2","INSTRUCTION":"COPY","SRC":"w"}
{"INSTRUCTION":"RELEASE","NAME":"w"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"randn","RESULT":["x"],"TIME":"10"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"x"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x"}
{"ARGS":["x","w2"],"INSTRUCTION":"CALL","NAME":"batch_norm","RESULT":["y","v","m"],"TIME":"250"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"v"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"v"}
{"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"m"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"m"}
{"ARGS":["y","m"],"INSTRUCTION":"MUTATE","MUTATE":[0],"NAME":"relu_","TIME":"30"}
{"ANNOTATION":"BACKWARD","INSTRUCTION":"ANNOTATE"}
{"ARGS":["y"],"INSTRUCTION":"CALL","NAME":"relu_backward","RESULT":["g"],"TIME":"40"}
{"INSTRUCTION":"MEMORY","MEMORY":"1000","NAME":"g"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"g"}
{"DST":"y","INSTRUCTION":"COPY_FROM","SRC":"g"}
{"INSTRUCTION":"RELEASE","NAME":"v"}
{"INSTRUCTION":"RELEASE","NAME":"nothing"}
)";

TEST(TraceWriter, EveryInstructionKindRoundTripsByteForByte) {
  TraceLog log = ReadTraceLog(kAllKinds, "all_kinds");
  EXPECT_EQ(log.instrs.size(), 12u);
  EXPECT_EQ(TraceLogText(log), kAllKinds);
  EXPECT_EQ(ReadTraceLog(TraceLogText(log), "again"), log);
}

TEST(TraceWriter, ParseOfWrittenLogIsTheSameGraph) {
  TraceLog log = ReadTraceLog(kAllKinds, "all_kinds");
  Graph original = ParseTrace(kAllKinds, "all_kinds");
  Graph written = ParseTrace(TraceLogText(log), "written");
  ExpectSameGraph(original, written);
  EXPECT_EQ(original.ops.size(), log.NumOperators());
}

TEST(TraceWriter, BuiltLogParsesToTheGraphOfTheEquivalentText) {
  TraceLog log;
  log.instrs = {
      TraceInstr::Annotate("START"),
      TraceInstr::Constant("w", 64),
      TraceInstr::Copy("w2", "w"),
      TraceInstr::Release("w"),
      TraceInstr::Call("randn", {}, {{"x", 1000, -1}}, 10),
      TraceInstr::Call("batch_norm", {"x", "w2"}, {{"y", 1000, -1}, {"v", 1000, 0}, {"m", 8, -1}},
                       250),
      TraceInstr::Mutate("relu_", {"y", "m"}, {0}, 30),
      TraceInstr::Annotate("BACKWARD"),
      TraceInstr::Call("relu_backward", {"y"}, {{"g", 1000, -1}}, 40),
      TraceInstr::CopyFrom("y", "g"),
      TraceInstr::Release("v"),
      TraceInstr::Release("nothing"),
  };
  EXPECT_EQ(TraceLogText(log), kAllKinds);
  ExpectSameGraph(ParseTrace(TraceLogText(log), "built"), ParseTrace(kAllKinds, "text"));
}

TEST(TraceWriter, NonCanonicalInputIsNormalisedWithoutChangingTheGraph) {
  // Integers instead of strings, spaces, unsorted keys, an unknown key, CRLF.
  const char* text =
      "{\"INSTRUCTION\": \"ANNOTATE\", \"ANNOTATION\": \"START\"}\r\n"
      "{\"INSTRUCTION\": \"CALL\", \"NAME\": \"f\", \"ARGS\": [], \"RESULT\": [\"a\"], \"TIME\": "
      "5, \"X\": 1}\n"
      "{\"INSTRUCTION\": \"MEMORY\", \"NAME\": \"a\", \"MEMORY\": 12}\n"
      "{\"INSTRUCTION\": \"ALIAS\", \"NAME\": \"a\", \"ALIAS\": -1}  \n";
  TraceLog log = ReadTraceLog(text, "loose");
  std::string written = TraceLogText(log);
  EXPECT_NE(written, text);
  ExpectSameGraph(ParseTrace(text, "loose"), ParseTrace(written, "written"));
  EXPECT_EQ(ReadTraceLog(written, "written"), log);
}

std::string ErrorOf(const char* text) {
  try {
    ReadTraceLog(text, "bad.log");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

TEST(TraceWriter, ReaderErrorsNameFileAndLine) {
  EXPECT_EQ(ErrorOf("{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1\",\"NAME\":\"a\"}\n"),
            "bad.log:1: MEMORY line outside a CONSTANT or CALL");
  EXPECT_EQ(ErrorOf("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"a\"}\n"
                    "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1\",\"NAME\":\"b\"}\n"),
            "bad.log:2: expected the MEMORY line of \"a\"");
  EXPECT_EQ(ErrorOf("{\"ARGS\":[],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a\"],"
                    "\"TIME\":\"1\"}\n"
                    "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"1\",\"NAME\":\"a\"}\n"),
            "bad.log:1: expected the ALIAS line of \"a\", found the end of the log");
  EXPECT_EQ(ErrorOf("{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"a\"}\n{\"INSTRUCTION\":\"FOO\"}\n"),
            "bad.log:2: unknown instruction \"FOO\"");
  EXPECT_EQ(ErrorOf("{\"ARGS\":[],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a\"],"
                    "\"TIME\":\"x\"}\n"),
            "bad.log:1: field \"TIME\" is not an integer: \"x\"");
}

// A bad line or field gets the same message from ReadTraceLog as from
// ParseTrace: both read lines with LogLineReader (sim/log_line.h).
TEST(TraceWriter, ReaderErrorsAreParseTracesErrors) {
  const std::string start = "{\"ANNOTATION\":\"START\",\"INSTRUCTION\":\"ANNOTATE\"}\n";
  const char* const bad_lines[] = {
      "{\"INSTRUCTION\":\n",
      "[1,2]\n",
      "{\"NAME\":\"a\"}\n",
      "{\"INSTRUCTION\":7}\n",
      "{\"INSTRUCTION\":\"FOO\"}\n",
      "{\"INSTRUCTION\":\"RELEASE\"}\n",
      "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"c\"}\n"
      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"-4\",\"NAME\":\"c\"}\n",
      "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"c\"}\n"
      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"99999999999999999999\",\"NAME\":\"c\"}\n",
      "{\"ARGS\":\"x\",\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a\"],\"TIME\":\"1\"}"
      "\n",
      "{\"ARGS\":[],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a\"],\"TIME\":[]}\n",
      "{\"ARGS\":[],\"INSTRUCTION\":\"MUTATE\",\"MUTATE\":[0],\"NAME\":\"f_\",\"TIME\":\"1\"}\n",
      "{\"ARGS\":[],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"a\"],\"TIME\":\"1\"}\n"
      "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"8\",\"NAME\":\"a\"}\n"
      "{\"ALIAS\":\"0\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"a\"}\n",
  };
  for (const char* bad : bad_lines) {
    const std::string text = start + bad;
    std::string parse_error;
    try {
      ParseTrace(text, "bad.log");
    } catch (const TraceError& e) {
      parse_error = e.what();
    }
    EXPECT_NE(parse_error, "") << bad;
    EXPECT_EQ(ErrorOf(text.c_str()), parse_error) << bad;
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// parse -> write -> parse on every public trace: the same bytes, hence the
// same schedule, operators, sizes and names.
TEST(TraceWriter, PublicTracesRoundTripByteForByte) {
  int checked = 0;
  for (const auto& t : PublicTraces()) {
    LocatedTrace found = InspectPublicTrace(t.name);
    if (found.check != TraceCheck::kVerified) continue;
    std::string text = ReadFile(found.path);
    TraceLog log = ReadTraceLog(text, found.path);
    std::string written = TraceLogText(log);
    EXPECT_TRUE(written == text) << t.name << ": written log differs from the original";
    Graph a = ParseTrace(text, found.path);
    Graph b = ParseTrace(written, "written");
    ExpectSameGraph(a, b);
    EXPECT_EQ(a.ops.size(), log.NumOperators()) << t.name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no public trace found (see traces/locate.h)";
}

}  // namespace
}  // namespace dtrcheck
