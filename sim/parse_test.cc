// Parser tests: simrd's parse_file on small hand-written logs.
#include "sim/parse.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dtrcheck {
namespace {

// The schedule written as simrd's GCompute/GGet/GRelease __str__ methods
// write it, joined by " | ".
std::string ScheduleString(const Graph& g) {
  std::string out;
  for (const Command& c : g.schedule) {
    if (!out.empty()) out += " | ";
    switch (c.kind) {
      case CommandKind::kCompute: {
        out += "(";
        for (TensorId t : g.ops[c.target].result) out += g.tensors[t].name + ",";
        out += ")=Compute(" + g.ops[c.target].name + ")";
        break;
      }
      case CommandKind::kGet:
        out += "Get(" + g.tensors[c.target].name + ")";
        break;
      case CommandKind::kPin:
        out += "Pin(" + g.tensors[c.target].name + ")";
        break;
      case CommandKind::kRelease:
        out += "Release(" + g.tensors[c.target].name + ")";
        break;
    }
  }
  return out;
}

TEST(ParseTest, EveryInstructionKindAsSimrdParsesIt) {
  Graph g = ParseTraceFile(std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/tiny_all_kinds.log");
  // Produced by simrd: cd $SIMRD_DIR && python3 -c "from simrd.parse import parse_file;
  //   g = parse_file(open('tests/data/tiny_all_kinds.log'));
  //   print(' | '.join(str(c) for c in g.schedule)); print(g.meta['compute'],
  //   sorted(g.meta['outputs']))"
  EXPECT_EQ(
      ScheduleString(g),
      "(w1,)=Compute(constant/0) | Pin(w1) | Get(w1) | Release(w1) | (x,)=Compute(constant/1) | "
      "Pin(x) | (a,)=Compute(conv/2) | (b,mean,view_a,)=Compute(batch_norm/3) | "
      "(b$,)=Compute(relu_/4) | Release(b) | (c,)=Compute(add/5) | Release(a) | Release(view_a) | "
      "(gc,)=Compute(add_backward/6) | Release(c) | Release(mean) | Get(gc) | Release(w1) | "
      "Get(gc) | Release(gc) | Pin(gc) | Pin(x) | Pin(b$) | Pin(gc) | Pin(gc)");
  EXPECT_EQ(g.compute, 1500);
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"b$", "gc", "x"}));
  // Tensor ids are assigned in schedule order, as simrd's runtime assigns them.
  EXPECT_EQ(g.tensors[3].name, "b");
  EXPECT_EQ(g.tensors[5].name, "view_a");
  EXPECT_EQ(g.ops[3].alias, (std::vector<int32_t>{-1, -1, 0}));
  EXPECT_EQ(g.tensors[5].storage_size, 1000);          // an alias has its base's storage size
  EXPECT_EQ(g.ops[4].size, (std::vector<Int>{1000}));  // MUTATE: the mutated storage's size
}

TEST(ParseTest, WithoutStartEverythingCounts) {
  ParseOptions no_start;
  no_start.start = false;
  Graph g =
      ParseTraceFile(std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/tiny_all_kinds.log", no_start);
  EXPECT_EQ(g.ops[0].name, "constant/0");
  EXPECT_EQ(g.tensors[0].name, "w0");  // the constant before START is kept
}

TEST(ParseTest, PreallocateDoesNotPinOutputs) {
  ParseOptions pre;
  pre.out_cond = OutputCondition::kPreallocate;
  Graph g =
      ParseTraceFile(std::string(DTRCHECK_SOURCE_DIR) + "/tests/data/tiny_all_kinds.log", pre);
  EXPECT_NE(g.schedule.back().kind, CommandKind::kPin);
  // output_ram: one storage size per distinct output storage (b$, gc, x).
  EXPECT_EQ(g.output_ram, 1000 + 1000 + 1000);
}

struct BadLog {
  const char* what;
  const char* text;
  long line;
  const char* message;
};

class ParseErrorTest : public ::testing::TestWithParam<BadLog> {};

TEST_P(ParseErrorTest, NamesFileLineAndProblem) {
  const BadLog& b = GetParam();
  try {
    ParseTrace(b.text, "bad.log", ParseOptions{false});
    FAIL() << "expected a TraceError for " << b.what;
  } catch (const TraceError& e) {
    EXPECT_EQ(e.file(), "bad.log");
    EXPECT_EQ(e.line(), b.line) << e.what();
    EXPECT_NE(e.message().find(b.message), std::string::npos) << e.what();
  }
}

const char kConst[] = R"({"INSTRUCTION":"CONSTANT","NAME":"x"})"
                      "\n"
                      R"({"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"x"})"
                      "\n";

INSTANTIATE_TEST_SUITE_P(
    Malformed, ParseErrorTest,
    ::testing::Values(
        BadLog{"bad JSON", "{\"INSTRUCTION\":\n", 1, "bad JSON"},
        BadLog{"not an object", "[1,2]\n", 1, "expected a JSON object"},
        BadLog{"unknown instruction", "{\"INSTRUCTION\":\"JUMP\"}\n", 1, "unknown instruction"},
        BadLog{"constant without MEMORY", "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n", 1,
               "expected a MEMORY line"},
        BadLog{"call without MEMORY",
               "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\","
               "\"MEMORY\":\"8\",\"NAME\":\"x\"}\n"
               "{\"ARGS\":[\"x\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"y\"],"
               "\"TIME\":\"5\"}\n"
               "{\"ALIAS\":\"-1\",\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"y\"}\n",
               4, "expected the MEMORY line"},
        BadLog{"undefined tensor",
               "{\"ARGS\":[\"nope\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"y\"],"
               "\"TIME\":\"5\"}\n"
               "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"8\",\"NAME\":\"y\"}\n{\"ALIAS\":\"-1\","
               "\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"y\"}\n",
               1, "undefined tensor \"nope\""},
        BadLog{"duplicate result",
               "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\","
               "\"MEMORY\":\"8\",\"NAME\":\"x\"}\n"
               "{\"ARGS\":[\"x\"],\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"RESULT\":[\"x\"],"
               "\"TIME\":\"5\"}\n"
               "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"8\",\"NAME\":\"x\"}\n{\"ALIAS\":\"-1\","
               "\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"x\"}\n",
               3, "already defined"},
        BadLog{"negative size",
               "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\","
               "\"MEMORY\":\"-8\",\"NAME\":\"x\"}\n",
               2, "must not be negative"},
        BadLog{"non-numeric size",
               "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\","
               "\"MEMORY\":\"lots\",\"NAME\":\"x\"}\n",
               2, "not an integer"},
        BadLog{"overflowing size",
               "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"}\n{\"INSTRUCTION\":\"MEMORY\","
               "\"MEMORY\":\"99999999999999999999999\",\"NAME\":\"x\"}\n",
               2, "overflows"},
        BadLog{"stray MEMORY", "{\"INSTRUCTION\":\"MEMORY\",\"MEMORY\":\"8\",\"NAME\":\"x\"}\n", 1,
               "outside"},
        BadLog{"empty line", "\n", 1, "bad JSON"}));

TEST(ParseTest, MissingStartIsAnError) { EXPECT_THROW(ParseTrace(kConst, "x.log"), TraceError); }

TEST(ParseTest, StrictReleaseRejectsUndefinedNames) {
  ParseOptions strict;
  strict.start = false;
  strict.ignore_undefined_release = false;
  std::string text = std::string(kConst) + "{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"ghost\"}\n";
  EXPECT_THROW(ParseTrace(text, "x.log", strict), TraceError);
  strict.ignore_undefined_release = true;
  EXPECT_NO_THROW(ParseTrace(text, "x.log", strict));
}

// simrd: `memory[i] = 0 if alias[i] != -1 else int(memory[i].memory)`, so a
// view's MEMORY value is never read, but j["MEMORY"] must exist.
TEST(ParseTest, AViewsMemoryValueIsNotRead) {
  ParseOptions no_start;
  no_start.start = false;
  auto call = [](const std::string& memory_field, const std::string& alias) {
    return std::string(kConst) +
           R"({"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"f","RESULT":["v"],"TIME":"5"})"
           "\n"
           R"({"INSTRUCTION":"MEMORY",)" +
           memory_field +
           R"("NAME":"v"})"
           "\n"
           R"({"ALIAS":")" +
           alias +
           R"(","INSTRUCTION":"ALIAS","NAME":"v"})"
           "\n";
  };
  for (bool reference : {false, true}) {
    no_start.reference_json_reader = reference;
    for (const char* value :
         {R"("MEMORY":"lots",)", R"("MEMORY":null,)", R"("MEMORY":[1],)", R"("MEMORY":"-8",)"}) {
      Graph g = ParseTrace(call(value, "0"), "v.log", no_start);
      ASSERT_EQ(g.ops.size(), 2u) << value;
      EXPECT_EQ(g.ops[1].size, (std::vector<Int>{0})) << value;
      EXPECT_EQ(g.ops[1].alias, (std::vector<int32_t>{0})) << value;
      // Not a view: the value is read, and refused.
      EXPECT_THROW(ParseTrace(call(value, "-1"), "v.log", no_start), TraceError) << value;
    }
    // The key itself must be there, view or not (a KeyError in simrd).
    EXPECT_THROW(ParseTrace(call("", "0"), "v.log", no_start), TraceError);
  }
}

// The fast JSON reader (simdjson) and the reference reader (nlohmann::json)
// must build the same graph from every log, and give the same error.
void ExpectReadersAgree(const std::string& text, const std::string& what,
                        ParseOptions options = {}) {
  std::string errors[2];
  Graph graphs[2];
  for (int reference = 0; reference < 2; ++reference) {
    options.reference_json_reader = reference == 1;
    try {
      graphs[reference] = ParseTrace(text, "t.log", options);
    } catch (const TraceError& e) {
      errors[reference] = e.what();
    }
  }
  EXPECT_EQ(errors[0], errors[1]) << what;
  EXPECT_TRUE(graphs[0] == graphs[1]) << what;
}

TEST(ParseTest, FastAndReferenceReadersAgreeOnTheTestLogs) {
  const std::filesystem::path data = std::filesystem::path(DTRCHECK_SOURCE_DIR) / "tests" / "data";
  int logs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data)) {
    if (entry.path().extension() != ".log") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    ExpectReadersAgree(text.str(), entry.path().string());
    ++logs;
  }
  EXPECT_GE(logs, 8);
}

TEST(ParseTest, FastAndReferenceReadersAgreeOnOddLines) {
  const std::string memory = R"({"INSTRUCTION":"MEMORY","MEMORY":"8","NAME":"x"})";
  const std::string lines[] = {
      // Repeated keys: Python (and the reference reader) keep the last.
      R"({"INSTRUCTION":"CONSTANT","NAME":"y","NAME":"x"})",
      R"({"INSTRUCTION":"JUMP","INSTRUCTION":"CONSTANT","NAME":"x"})",
      // An escaped key and escaped values.
      R"({"INSTRUCTION":"CONSTANT","N\u0041ME":"x"})",
      R"({"INSTRUCTION":"CONST\u0041NT","NAME":"\u0078"})",
      // White space around the object, a carriage return, unknown keys.
      "  {\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"x\"} \r",
      R"({"INSTRUCTION":"CONSTANT","NAME":"x","EXTRA":[1,{"a":null}]})",
      // Not one object per line.
      R"({"INSTRUCTION":"CONSTANT","NAME":"x"} {"INSTRUCTION":"CONSTANT","NAME":"z"})",
      R"({"INSTRUCTION":"CONSTANT",)",
      "",
      R"("CONSTANT")",
      R"({"INSTRUCTION":"CONSTANT","NAME":7})",
  };
  for (const std::string& line : lines)
    ExpectReadersAgree(line + "\n" + memory + "\n", line, ParseOptions{false});
  // Numbers as JSON integers of every range, as strings, and as floats.
  const char* sizes[] = {"8",
                         "\"8\"",
                         "-0",
                         "\"-0\"",
                         "8.0",
                         "1e3",
                         "9223372036854775807",
                         "9223372036854775808",
                         "18446744073709551615",
                         "18446744073709551616",
                         "\"18446744073709551616\"",
                         "-1",
                         "\" 8\"",
                         "true",
                         "null"};
  for (const char* size : sizes) {
    std::string text = R"({"INSTRUCTION":"CONSTANT","NAME":"x"})"
                       "\n"
                       R"({"INSTRUCTION":"MEMORY","NAME":"x","MEMORY":)" +
                       std::string(size) + "}\n";
    ExpectReadersAgree(text, size, ParseOptions{false});
  }
  // MUTATE indices and aliases.
  const char* mutates[] = {"[0]", "[1]", "[-1]", "[0.0]", "[\"0\"]", "[]", "0"};
  for (const char* mutate : mutates) {
    std::string text = std::string(kConst) +
                       R"({"INSTRUCTION":"MUTATE","NAME":"m","ARGS":["x"],"TIME":"3","MUTATE":)" +
                       mutate + "}\n";
    ExpectReadersAgree(text, mutate, ParseOptions{false});
  }
}

}  // namespace
}  // namespace dtrcheck
