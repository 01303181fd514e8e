#include "io/trace_graph.h"

#include <gtest/gtest.h>

#include "io/trace_writer.h"
#include "sim/parse.h"
#include "traces/locate.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

// Every combination of the options that change the Graph.
std::vector<ParseOptions> AllOptions() {
  std::vector<ParseOptions> out;
  for (bool start : {true, false})
    for (OutputCondition cond : {OutputCondition::kRematerialize, OutputCondition::kPreallocate})
      for (bool ignore : {true, false}) out.push_back(ParseOptions{start, cond, ignore});
  return out;
}

// The outcome of one route: the Graph, or the error.
struct Outcome {
  std::optional<Graph> graph;
  std::string error;
};

Outcome Direct(const TraceLog& log, const ParseOptions& o) {
  try {
    return {TraceLogGraph(log, "t.log", o), ""};
  } catch (const TraceError& e) {
    return {std::nullopt, e.what()};
  }
}

Outcome ThroughText(const TraceLog& log, const ParseOptions& o) {
  try {
    return {ParseTrace(TraceLogText(log), "t.log", o), ""};
  } catch (const TraceError& e) {
    return {std::nullopt, e.what()};
  }
}

TEST(TraceLogGraph, EveryGeneratorShapeGivesTheGraphOfItsText) {
  int graphs = 0;
  for (const std::string& shape : GeneratorShapes()) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      GeneratorParams p;
      p.shape = shape;
      p.seed = seed;
      p.layers = 3 + static_cast<int>(seed);
      p.width = 2;
      TraceLog log = GenerateTrace(p);
      for (const ParseOptions& o : AllOptions()) {
        Outcome a = Direct(log, o), b = ThroughText(log, o);
        ASSERT_EQ(a.error, b.error) << shape << " seed " << seed;
        if (a.graph) {
          EXPECT_TRUE(*a.graph == *b.graph) << shape << " seed " << seed;
          ++graphs;
        }
      }
    }
  }
  EXPECT_GT(graphs, 0);
}

TEST(TraceLogGraph, PublicTracesGiveTheGraphOfTheirFile) {
  for (const auto& t : PublicTraces()) {
    LocatedTrace found = InspectPublicTrace(t.name);
    if (found.check != TraceCheck::kVerified) continue;
    Graph direct = TraceLogGraph(ReadTraceLogFile(found.path), found.path);
    EXPECT_TRUE(direct == ParseTraceFile(found.path)) << t.name;
  }
}

// A log edited in memory can be wrong in the ways a log file can. Each is
// refused by both routes with the same message, naming the same line.
TEST(TraceLogGraph, BadLogsAreRefusedAsTheirTextIs) {
  auto start = TraceInstr::Annotate("START");
  auto w = TraceInstr::Constant("w", 64);
  auto call = [](std::string op, std::vector<std::string> args, std::string out, Int mem,
                 int32_t alias = -1, Int time = 5) {
    return TraceInstr::Call(std::move(op), std::move(args), {{std::move(out), mem, alias}}, time);
  };
  const std::vector<TraceLog> cases = {
      {{w}},                                                    // no START
      {{start, call("f", {"nope"}, "a", 8)}},                   // undefined argument
      {{start, w, call("f", {"w"}, "w", 8)}},                   // result defined twice
      {{start, w, TraceInstr::Copy("w", "w")}},                 // COPY onto a name
      {{start, TraceInstr::CopyFrom("a", "w")}},                // undefined COPY_FROM
      {{start, TraceInstr::Release("ghost")}},                  // strict release only
      {{start, w, TraceInstr::Call("f", {"w"}, {}, 1)}},        // CALL without results
      {{start, w, TraceInstr::Mutate("g_", {"w"}, {}, 1)}},     // MUTATE nothing
      {{start, TraceInstr::Constant("c", -4)}},                 // negative size
      {{start, w, call("f", {"w"}, "a", 8, 1)}},                // alias out of range
      {{start, w, call("f", {"w"}, "a", 8, -1, -1)}},           // negative time
      {{start, w, TraceInstr::Mutate("g_", {"w"}, {1}, 1)}},    // mutate out of range
      {{start, w, call("f", {"w"}, "a", Int(INT64_MAX) + 1)}},  // too big
  };
  ParseOptions strict;
  strict.ignore_undefined_release = false;
  for (size_t i = 0; i < cases.size(); ++i) {
    Outcome a = Direct(cases[i], strict), b = ThroughText(cases[i], strict);
    EXPECT_FALSE(a.graph) << "case " << i;
    EXPECT_FALSE(b.graph) << "case " << i;
    EXPECT_NE(a.error, "") << "case " << i;
    EXPECT_EQ(a.error, b.error) << "case " << i;
  }
}

}  // namespace
}  // namespace dtrcheck
