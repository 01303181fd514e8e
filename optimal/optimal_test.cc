#include <algorithm>
#include <filesystem>
#include <iostream>

#include <gtest/gtest.h>

#include "analysis/sweep.h"
#include "io/trace_graph.h"
#include "optimal/exhaustive.h"
#include "optimal/milp_solver.h"
#include "optimal/remat_problem.h"
#include "optimal/schedule.h"
#include "optimal/trace_optimum.h"
#include "sim/parse.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

// x = f(); y = g(x); z = h(y); w = k(x, z); x, y and z released: w is the
// only output. Sizes 100, 100, 100, 50; costs 1, 2, 3, 4.
const char* kDiamond = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"f","RESULT":["x"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"x"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"g","RESULT":["y"],"TIME":"2"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"ARGS":["y"],"INSTRUCTION":"CALL","NAME":"h","RESULT":["z"],"TIME":"3"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"z"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"z"}
{"ARGS":["x","z"],"INSTRUCTION":"CALL","NAME":"k","RESULT":["w"],"TIME":"4"}
{"INSTRUCTION":"MEMORY","MEMORY":"50","NAME":"w"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"w"}
{"INSTRUCTION":"RELEASE","NAME":"x"}
{"INSTRUCTION":"RELEASE","NAME":"y"}
{"INSTRUCTION":"RELEASE","NAME":"z"}
)";

// By hand: at 300 bytes, x, y, z fit together (300), y is freed, w fits
// beside x and z (250): cost 1 + 2 + 3 + 4 = 10. At 250, x must go before z
// (y + z = 200), then y, and x is recomputed for w (x + z + w = 250): 11. At
// 249, w never fits beside its two arguments.
TEST(Optimal, DiamondByHand) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  ASSERT_EQ(p.nodes.size(), 4u);
  EXPECT_EQ(p.outputs, std::vector<int>{3});
  struct Expect {
    Int budget;
    std::optional<Int> compute;
  };
  for (const Expect& e : {Expect{400, 10}, Expect{300, 10}, Expect{250, 11}, Expect{249, {}}}) {
    OptimalResult r = SolveOptimal(p, e.budget);
    if (!e.compute) {
      EXPECT_EQ(r.status, OptimalStatus::kInfeasible) << IntToString(e.budget);
      continue;
    }
    ASSERT_EQ(r.status, OptimalStatus::kOptimal) << IntToString(e.budget);
    EXPECT_TRUE(r.compute == e.compute) << IntToString(e.budget);
    ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), e.budget);
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_TRUE(c.compute == *e.compute);
    EXPECT_TRUE(ExhaustiveOptimum(p, e.budget, true) == e.compute);
  }
}

TEST(Optimal, CheckerRefusesBadSchedules) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  using S = ScheduleStep;
  auto op = [&](int node) { return S{S::kCompute, p.nodes[node].op, -1}; };
  auto free = [&](int node) { return S{S::kFree, -1, p.units[p.nodes[node].units[0]].tensor}; };
  Schedule good{{op(0), op(1), op(2), free(1), op(3)}};
  EXPECT_TRUE(CheckSchedule(g, good, 300).ok);
  EXPECT_NE(CheckSchedule(g, good, 299).error.find("exceeds the budget"), std::string::npos);
  Schedule missing_arg{{op(0), free(0), op(1)}};
  EXPECT_NE(CheckSchedule(g, missing_arg, 1000).error.find("not materialized"), std::string::npos);
  Schedule out_of_order{{op(1)}};
  EXPECT_NE(CheckSchedule(g, out_of_order, 1000).error.find("out of log order"), std::string::npos);
  Schedule twice{{op(0), op(0)}};
  EXPECT_NE(CheckSchedule(g, twice, 1000).error.find("already resident"), std::string::npos);
  Schedule no_output = good;
  no_output.steps.push_back(free(3));
  EXPECT_NE(CheckSchedule(g, no_output, 1000).error.find("not resident at the end"),
            std::string::npos);
  // Written and read back.
  Schedule again = ReadSchedule(g, ScheduleText(g, good, "header"), "s.txt");
  EXPECT_TRUE(again.steps == good.steps);
  EXPECT_THROW(ReadSchedule(g, "compute nothing/9\n", "s.txt"), std::invalid_argument);
}

// The archived counterexamples (corpus/<kind>/<id>/trace.log) with at
// most `max_nodes` nodes: reduced traces of every generator shape.
std::vector<std::pair<std::string, Graph>> SmallTraces(size_t max_nodes) {
  std::vector<std::pair<std::string, Graph>> out;
  std::vector<std::filesystem::path> logs;
  for (const auto& kind : std::filesystem::directory_iterator(DTRCHECK_SOURCE_DIR "/corpus"))
    if (kind.is_directory())
      for (const auto& entry : std::filesystem::directory_iterator(kind.path()))
        if (std::filesystem::exists(entry.path() / "trace.log"))
          logs.push_back(entry.path() / "trace.log");
  std::sort(logs.begin(), logs.end());
  for (const auto& log : logs) {
    Graph g = ParseTraceFile(log.string());
    if (MakeRematProblem(g).nodes.size() <= max_nodes) out.push_back({log.string(), std::move(g)});
  }
  return out;
}

// From the constants alone to everything resident at once, in eighths,
// and the baseline's peak.
std::vector<Int> Budgets(const Graph& g, const RematProblem& p) {
  Int everything = 0;
  for (const RematUnit& u : p.units) everything += u.size;
  std::vector<Int> out;
  for (int eighth = 0; eighth <= 8; ++eighth)
    out.push_back(p.fixed_at_end + everything * eighth / 8);
  out.push_back(RunBaseline(g, "RuntimeV2EagerOptimized").peak);
  return out;
}

// The solver and the exhaustive search in the same schedule space agree on
// every budget; every schedule passes the checker at its own cost; the
// unrestricted search is never worse (and says what the stage order costs).
TEST(Optimal, SolverAgreesWithExhaustiveSearch) {
  int compared = 0, feasible = 0, cheaper_out_of_order = 0;
  for (const auto& [name, g] : SmallTraces(10)) {
    RematProblem p = MakeRematProblem(g);
    for (Int budget : Budgets(g, p)) {
      OptimalResult r = SolveOptimal(p, budget);
      std::optional<Int> exhaustive = ExhaustiveOptimum(p, budget, true);
      std::optional<Int> free_order = ExhaustiveOptimum(p, budget, false);
      ASSERT_NE(r.status, OptimalStatus::kNotProven) << name;
      ASSERT_NE(r.status, OptimalStatus::kFeasible) << name;
      EXPECT_EQ(r.status == OptimalStatus::kInfeasible, !exhaustive.has_value())
          << name << " at " << IntToString(budget);
      if (exhaustive) {
        EXPECT_TRUE(r.compute == exhaustive) << name << " at " << IntToString(budget);
        ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), budget);
        EXPECT_TRUE(c.ok) << name << ": " << c.error;
        EXPECT_TRUE(c.compute == *r.compute) << name;
        ASSERT_TRUE(free_order.has_value());
        EXPECT_TRUE(*free_order <= *exhaustive);
        if (*free_order < *exhaustive) ++cheaper_out_of_order;
        ++feasible;
      }
      ++compared;
    }
  }
  // What Checkmate's order within a stage costs (optimal/README.md).
  std::cout << compared << " budgets, " << feasible << " feasible, " << cheaper_out_of_order
            << " cheaper with recomputations out of log order\n";
  EXPECT_GT(compared, 150);
  EXPECT_GT(feasible, 80);
}

}  // namespace
}  // namespace dtrcheck
