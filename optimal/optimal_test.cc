#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "analysis/sweep.h"
#include "io/trace_graph.h"
#include "optimal/best_first.h"
#include "optimal/blas_threads.h"
#include "optimal/exhaustive.h"
#include "optimal/live_memory_bound.h"
#include "optimal/milp_solver.h"
#include "optimal/optimum.h"
#include "optimal/regret.h"
#include "optimal/remat_problem.h"
#include "optimal/run_schedule.h"
#include "optimal/schedule.h"
#include "optimal/smallest_budget.h"
#include "sim/accepted_pairs.h"
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
    EXPECT_TRUE(ExhaustiveOptimum(p, e.budget, false) == e.compute);
  }
}

// Two chains feed w: a -> x (100 bytes) and b -> p (100) -> y (1); z (125
// bytes, the whole budget) runs alone between y and w, so x and y must both
// be remade for w. In log order (a, x, b, p, y: Checkmate's stage order) x
// is resident while p runs: 1 + 100 + 1 + 100 > 125, and holding a or b
// changes nothing, so no schedule in that space fits. Out of log order
// (b, p, y, free b and p, a, x, free a, w) every step fits in 102 bytes,
// as simrd's runtimes may run it. By hand, the cheapest: the seven first
// runs, then b, p, y, a, x again (x is freed before p's first run, which
// it cannot share memory with): 12. The search must find it, and neither
// the program nor its relaxation may call the budget infeasible
// (corpus/optimal-violation/eac76c045ddc2c27, the same defect found by the
// fuzzer on 40 operators).
const char* kTwoChains = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"f","RESULT":["a"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"1","NAME":"a"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"a"}
{"ARGS":["a"],"INSTRUCTION":"CALL","NAME":"g","RESULT":["x"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"x"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x"}
{"INSTRUCTION":"RELEASE","NAME":"a"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"f","RESULT":["b"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"1","NAME":"b"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"b"}
{"ARGS":["b"],"INSTRUCTION":"CALL","NAME":"h","RESULT":["p"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"p"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"p"}
{"INSTRUCTION":"RELEASE","NAME":"b"}
{"ARGS":["p"],"INSTRUCTION":"CALL","NAME":"k","RESULT":["y"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"1","NAME":"y"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"y"}
{"INSTRUCTION":"RELEASE","NAME":"p"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"big","RESULT":["z"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"125","NAME":"z"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"z"}
{"INSTRUCTION":"RELEASE","NAME":"z"}
{"ARGS":["x","y"],"INSTRUCTION":"CALL","NAME":"m","RESULT":["w"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"1","NAME":"w"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"w"}
{"INSTRUCTION":"RELEASE","NAME":"x"}
{"INSTRUCTION":"RELEASE","NAME":"y"}
)";

TEST(Optimal, RecomputationsOutOfLogOrderFit) {
  Graph g = ParseTrace(kTwoChains, "two_chains.log");
  RematProblem p = MakeRematProblem(g);
  ASSERT_EQ(p.nodes.size(), 7u);
  const Int budget = 125;
  EXPECT_FALSE(ExhaustiveOptimum(p, budget, true).has_value());  // the log-order space is empty
  EXPECT_TRUE(ExhaustiveOptimum(p, budget, false) == Int(12));
  for (OptimalEngine engine : {OptimalEngine::kBoth, OptimalEngine::kSearch}) {
    OptimalOptions options;
    options.engine = engine;
    OptimalResult r = SolveOptimal(p, budget, options);
    ASSERT_EQ(r.status, OptimalStatus::kOptimal) << r.proof;
    EXPECT_TRUE(r.compute == Int(12));
    ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), budget);
    EXPECT_TRUE(c.ok) << c.error;
    EXPECT_TRUE(c.compute == Int(12));
  }
  // The program has no schedule here: it says so, and proves nothing; the
  // only bound is the live-memory one, below the optimum.
  OptimalOptions milp;
  milp.engine = OptimalEngine::kMilp;
  OptimalResult m = SolveOptimal(p, budget, milp);
  EXPECT_EQ(m.status, OptimalStatus::kNotProven) << m.proof;
  EXPECT_NE(m.proof.find("log-order space"), std::string::npos) << m.proof;
  EXPECT_EQ(m.best_bound, IntToDouble(LiveMemoryLowerBound(p, budget).compute));
  EXPECT_LE(m.best_bound, 12);
  // One byte less and z fits nowhere: the search proves it over every
  // schedule.
  OptimalResult none = SolveOptimal(p, 124);
  EXPECT_EQ(none.status, OptimalStatus::kInfeasible) << none.proof;
  EXPECT_FALSE(ExhaustiveOptimum(p, 124, false).has_value());
}

// Under PREALLOCATE simrd's runtimes neither count output_ram nor pin the
// outputs at the end (simrd/parse/parse.py records output_ram in g.meta
// only): a 2,000,000-byte output fits 2,000,000 bytes, where the model and
// the checker once counted it twice (output_ram beside its own storage;
// corpus/optimal-violation/13ce98b1839fac0e, 3,462,200 bytes "infeasible").
TEST(Optimal, PreallocateCountsOutputsOnce) {
  const char* trace = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"f","RESULT":["x"],"TIME":"5"}
{"INSTRUCTION":"MEMORY","MEMORY":"2000000","NAME":"x"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x"}
)";
  ParseOptions preallocate;
  preallocate.out_cond = OutputCondition::kPreallocate;
  Graph g = ParseTrace(trace, "one.log", preallocate);
  ASSERT_EQ(g.output_ram, Int(2000000));
  RematProblem p = MakeRematProblem(g);
  EXPECT_TRUE(p.outputs.empty());  // nothing pinned at the end
  EXPECT_TRUE(p.fixed_at_end == Int(0));
  OptimalResult r = SolveOptimal(p, 2000000);
  ASSERT_EQ(r.status, OptimalStatus::kOptimal) << r.proof;
  EXPECT_TRUE(r.compute == Int(5));
  ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), 2000000);
  EXPECT_TRUE(c.ok) << c.error;
  EXPECT_TRUE(c.peak == Int(2000000));
  // simrd may end with the output evicted under PREALLOCATE, and the
  // schedule found does: nothing needs it.
  const Schedule evicted = ToSchedule(p, r.steps);
  ASSERT_FALSE(evicted.steps.empty());
  EXPECT_EQ(evicted.steps.back().kind, ScheduleStep::kFree);
  EXPECT_EQ(SolveOptimal(p, 1999999).status, OptimalStatus::kInfeasible);
  // Under REMATERIALIZE the end pins it: it must be resident.
  Graph pinned = ParseTrace(trace, "one.log");
  EXPECT_FALSE(CheckSchedule(pinned, evicted, 2000000).ok);
  EXPECT_EQ(MakeRematProblem(pinned).outputs, std::vector<int>{0});
}

// simrd names a view's storage by the tensor it views, one level up: an
// output kept through a view of a view is named by a view ("v"), and the
// checker must look for that view's storage (it refused every schedule of
// such a trace, resnet32 among them, as "output v is not resident").
TEST(Optimal, OutputNamedByAViewIsItsStorage) {
  const char* trace = R"({"ANNOTATION":"START","INSTRUCTION":"ANNOTATE"}
{"ARGS":[],"INSTRUCTION":"CALL","NAME":"f","RESULT":["x"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"x"}
{"ALIAS":"-1","INSTRUCTION":"ALIAS","NAME":"x"}
{"ARGS":["x"],"INSTRUCTION":"CALL","NAME":"t","RESULT":["v"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"v"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"v"}
{"ARGS":["v"],"INSTRUCTION":"CALL","NAME":"t","RESULT":["w"],"TIME":"1"}
{"INSTRUCTION":"MEMORY","MEMORY":"100","NAME":"w"}
{"ALIAS":"0","INSTRUCTION":"ALIAS","NAME":"w"}
{"INSTRUCTION":"RELEASE","NAME":"x"}
{"INSTRUCTION":"RELEASE","NAME":"v"}
)";
  Graph g = ParseTrace(trace, "views.log");
  ASSERT_EQ(g.outputs, std::vector<std::string>{"v"});
  RematProblem p = MakeRematProblem(g);
  OptimalResult r = SolveOptimal(p, 1000);
  ASSERT_EQ(r.status, OptimalStatus::kOptimal);
  ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), 1000);
  EXPECT_TRUE(c.ok) << c.error;
}

// A run that ends ok is a schedule the checker passes, at its own cost, and
// bounds the optimum: the diamond at 250 bytes (optimum 11, by hand).
TEST(RunSchedule, OkRunIsAnIncumbent) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  const Baseline baseline = RunBaseline(g, "RuntimeV2EagerOptimized");
  RunConfig config;  // DTR on RuntimeV2EagerOptimized
  RunAsSchedule run = ScheduleOfRun(g, p, config, baseline, 250);
  ASSERT_EQ(run.record.status, Status::kOk);
  ASSERT_TRUE(run.incumbent) << run.gap;
  EXPECT_TRUE(run.incumbent->compute == run.record.model_compute + run.record.remat_compute);
  EXPECT_TRUE(run.incumbent->compute >= Int(11));
  OptimalOptions options;
  options.incumbent = run.incumbent;
  OptimalResult r = SolveOptimal(p, 250, options);
  EXPECT_EQ(r.status, OptimalStatus::kOptimal);
  EXPECT_TRUE(r.compute == Int(11));
  // Below the smallest budget the run is not ok and gives none.
  EXPECT_FALSE(ScheduleOfRun(g, p, config, baseline, 249).incumbent);
}

TEST(Optimal, CheckerRefusesBadSchedules) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  auto op = [&](int node) { return p.nodes[node].op; };
  auto tensor = [&](int node) { return p.units[p.nodes[node].units[0]].tensor; };
  using S = ScheduleStep;
  Schedule good{{{S::kCompute, op(0)},
                 {S::kCompute, op(1)},
                 {S::kCompute, op(2)},
                 {S::kFree, tensor(1)},
                 {S::kCompute, op(3)}}};
  EXPECT_TRUE(CheckSchedule(g, good, 300).ok);
  EXPECT_NE(CheckSchedule(g, good, 299).error.find("exceeds the budget"), std::string::npos);
  Schedule missing_arg{{{S::kCompute, op(0)}, {S::kFree, tensor(0)}, {S::kCompute, op(1)}}};
  EXPECT_NE(CheckSchedule(g, missing_arg, 1000).error.find("not materialized"), std::string::npos);
  Schedule out_of_order{{{S::kCompute, op(1)}}};
  EXPECT_NE(CheckSchedule(g, out_of_order, 1000).error.find("out of log order"), std::string::npos);
  Schedule twice{{{S::kCompute, op(0)}, {S::kFree, tensor(0)}, {S::kFree, tensor(0)}}};
  EXPECT_NE(CheckSchedule(g, twice, 1000).error.find("not resident"), std::string::npos);
  Schedule no_output = good;
  no_output.steps.push_back({S::kFree, tensor(3)});
  EXPECT_NE(CheckSchedule(g, no_output, 1000).error.find("not resident at the end"),
            std::string::npos);
  // Written and read back.
  Schedule again = ReadSchedule(g, ScheduleText(g, good, "header"), "s.txt");
  EXPECT_TRUE(again.steps == good.steps);
  EXPECT_THROW(ReadSchedule(g, "compute nothing/9\n", "s.txt"), std::invalid_argument);
  EXPECT_THROW(ReadSchedule(g, "free f/0\n", "s.txt"), std::invalid_argument);  // an operator
}

// The model's own check (StepsViolation), which every engine's schedule
// passes before it is reported, refuses what the Graph checker refuses, in
// problem terms, on the diamond's schedules worked out above.
// The live-memory bound on the diamond, by hand: at 250 bytes, h's first
// run holds y and z (200) and x, needed later by k (100): 50 bytes of x
// must go, half of f's run (cost 1), rounded up: 10 + 1 = 11, the optimum
// (DiamondByHand), so the warm start or CBC's schedule is proven minimal.
// At 300 nothing must go (10). At 249, k's first run needs x, z and w
// (250): infeasible, and the proof names k.
TEST(Optimal, LiveMemoryBoundByHand) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  LiveMemoryBound at250 = LiveMemoryLowerBound(p, 250);
  EXPECT_TRUE(at250.compute == 11);
  EXPECT_EQ(at250.stage, 2);
  EXPECT_TRUE(LiveMemoryLowerBound(p, 300).compute == 10);
  EXPECT_EQ(LiveMemoryLowerBound(p, 300).stage, -1);
  LiveMemoryBound at249 = LiveMemoryLowerBound(p, 249);
  EXPECT_TRUE(at249.infeasible);
  EXPECT_NE(at249.proof.find("k/"), std::string::npos) << at249.proof;
  OptimalOptions milp;
  milp.engine = OptimalEngine::kMilp;
  OptimalResult r = SolveOptimal(p, 250, milp);
  EXPECT_EQ(r.status, OptimalStatus::kOptimal);
  EXPECT_NE(r.proof.find("live-memory bound"), std::string::npos) << r.proof;
}

TEST(Optimal, ModelCheckRefusesBadSteps) {
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  auto unit = [&](int node) { return p.nodes[node].units[0]; };
  const std::vector<NodeStep> good = {{0, true}, {1, true}, {2, true}, {unit(1), false}, {3, true}};
  EXPECT_EQ(StepsViolation(p, 300, good), "");
  EXPECT_NE(StepsViolation(p, 299, good).find("over the budget"), std::string::npos);
  const std::vector<NodeStep> missing_arg = {{0, true}, {unit(0), false}, {1, true}};
  EXPECT_NE(StepsViolation(p, 1000, missing_arg).find("not resident"), std::string::npos);
  EXPECT_NE(StepsViolation(p, 1000, {{1, true}}).find("before node 0's first run"),
            std::string::npos);
  const std::vector<NodeStep> twice = {{0, true}, {unit(0), false}, {unit(0), false}};
  EXPECT_NE(StepsViolation(p, 1000, twice).find("freed while not resident"), std::string::npos);
  std::vector<NodeStep> no_output = good;
  no_output.push_back({unit(3), false});
  EXPECT_NE(StepsViolation(p, 1000, no_output).find("output unit"), std::string::npos);
  EXPECT_NE(StepsViolation(p, 1000, {{0, true}}).find("never runs"), std::string::npos);
}

// Sizes of 10^18 bytes (the fuzzer's wide values): CBC's program, with the
// budget's capacity as a row bound in bytes, returned a solution breaking a
// dependency row (corpus/optimal-violation/4ae0a241202cb29e, the archive's
// replay). Sizes are then rounded up to a coarser unit (cbc_milp.cc,
// kMaxCapacityUnits). The diamond with sizes 10^18 + 1 (x, y, z) and
// 5 * 10^17 + 1 (w), whose common factor is 1, is rounded so; with a
// thousandth of slack over DiamondByHand's budgets it has the same
// answers, from the program alone too, and each schedule checks.
TEST(Optimal, WideSizesKeepTheProgramSound) {
  const Int big = 1'000'000'000'000'000'000;
  std::string wide = kDiamond;
  auto resize = [&](const std::string& from, Int to) {
    const std::string text = "\"" + IntToString(to) + "\"";
    for (size_t at = wide.find(from); at != std::string::npos; at = wide.find(from, at + 1))
      wide.replace(at, from.size(), text);
  };
  resize("\"100\"", big + 1);
  resize("\"50\"", big / 2 + 1);
  Graph g = ParseTrace(wide, "diamond-wide.log");
  RematProblem p = MakeRematProblem(g);
  ASSERT_TRUE(p.units[0].size == big + 1);
  OptimalOptions milp;
  milp.engine = OptimalEngine::kMilp;
  const Int slack = big / 1000;
  for (auto [budget, compute] :
       {std::pair<Int, Int>{3 * big + 3 + slack, 10}, {5 * big / 2 + 3 + slack, 11}}) {
    for (const OptimalOptions& o : {OptimalOptions{}, milp}) {
      OptimalResult r = SolveOptimal(p, budget, o);
      ASSERT_TRUE(r.compute) << r.proof;
      EXPECT_TRUE(*r.compute == compute) << IntToString(*r.compute);
      EXPECT_EQ(StepsViolation(p, budget, r.steps), "");
      ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), budget);
      EXPECT_TRUE(c.ok) << c.error;
    }
  }
}

// The archived counterexamples (corpus/<kind>/<id>/trace.log, the copies
// tests keep in tests/data/archive, and tests/data/reduced_traces: the
// archive's entries before it kept one per bucket) with at most `max_nodes`
// nodes: reduced traces of every generator shape.
std::vector<std::pair<std::string, Graph>> SmallTraces(size_t max_nodes) {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, Graph>> out;
  std::vector<fs::path> logs;
  for (const char* root :
       {DTRCHECK_SOURCE_DIR "/corpus", DTRCHECK_SOURCE_DIR "/tests/data/archive"})
    for (const auto& kind : fs::directory_iterator(root))
      // corpus/optimal-violation/ is the optimum fuzzer's own archive,
      // replayed by ctest optimal_violation_replay (some of its logs have
      // no START annotation).
      if (kind.is_directory() && kind.path().filename() != "optimal-violation")
        for (const auto& entry : fs::directory_iterator(kind.path()))
          if (fs::exists(entry.path() / "trace.log")) logs.push_back(entry.path() / "trace.log");
  for (const auto& log : fs::directory_iterator(DTRCHECK_SOURCE_DIR "/tests/data/reduced_traces"))
    if (log.path().extension() == ".log") logs.push_back(log.path());
  std::sort(logs.begin(), logs.end());
  for (const auto& log : logs) {
    Graph g = ParseTraceFile(log.string());
    RematProblem p = MakeRematProblem(g);
    if (p.nodes.size() <= max_nodes && p.units.size() <= max_nodes)
      out.push_back({log.string(), std::move(g)});
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

// The best-first search, alone and combined as `dtrcheck optimal` runs it,
// agrees with the exhaustive search over every schedule on every budget;
// the program's schedules agree with the exhaustive search in its own
// (log-order) space, and are never called optimal or infeasible on their
// own; every schedule passes the checker at its own cost.
TEST(Optimal, SolverAgreesWithExhaustiveSearch) {
  int compared = 0, feasible = 0, order_matters = 0, raised = 0, tight = 0;
  for (const auto& [name, g] : SmallTraces(14)) {
    RematProblem p = MakeRematProblem(g);
    for (Int budget : Budgets(g, p)) {
      std::optional<Int> log_order = ExhaustiveOptimum(p, budget, true);
      std::optional<Int> every = ExhaustiveOptimum(p, budget, false);
      for (OptimalEngine engine :
           {OptimalEngine::kMilp, OptimalEngine::kSearch, OptimalEngine::kBoth}) {
        OptimalOptions options;
        options.engine = engine;
        OptimalResult r = SolveOptimal(p, budget, options);
        const std::string at = name + " at " + IntToString(budget) + " (" + r.engine + ")";
        if (engine == OptimalEngine::kMilp) {
          EXPECT_TRUE(r.compute == log_order) << at;
          if (r.status == OptimalStatus::kInfeasible) {
            EXPECT_FALSE(every.has_value()) << at;
          }
          // CBC proves nothing; its schedule is minimal only by reaching
          // the live-memory bound.
          if (r.status == OptimalStatus::kOptimal) {
            EXPECT_TRUE(r.compute == Int(0) || r.compute == every) << at;
            EXPECT_NE(r.proof.find("nothing to compute") + r.proof.find("live-memory"),
                      2 * std::string::npos)
                << at;
          }
        } else {
          ASSERT_TRUE(r.status == OptimalStatus::kOptimal || r.status == OptimalStatus::kInfeasible)
              << at << ": " << OptimalStatusName(r.status) << " (" << r.proof << ")";
          EXPECT_EQ(r.status == OptimalStatus::kInfeasible, !every.has_value()) << at;
          EXPECT_TRUE(r.compute == every) << at;
        }
        if (!r.compute) continue;
        ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r.steps), budget);
        EXPECT_TRUE(c.ok) << at << ": " << c.error;
        EXPECT_TRUE(c.compute == *r.compute) << at;
      }
      // The live-memory bound holds for every schedule, and proves
      // infeasibility only where there is no schedule.
      const LiveMemoryBound live = LiveMemoryLowerBound(p, budget);
      if (live.infeasible) {
        EXPECT_FALSE(every.has_value())
            << name << " at " << IntToString(budget) << ": " << live.proof;
      } else if (every) {
        EXPECT_TRUE(live.compute <= *every) << name << " at " << IntToString(budget);
        raised += live.compute > p.model_compute;
        tight += live.compute == *every && *every > p.model_compute;
      }
      if (log_order) {
        ASSERT_TRUE(every.has_value());
        EXPECT_TRUE(*every <= *log_order);
      }
      order_matters += every != log_order;
      feasible += every.has_value();
      ++compared;
    }
  }
  RecordProperty("order_matters", order_matters);
  RecordProperty("live_bound_raised", raised);
  RecordProperty("live_bound_tight", tight);
  EXPECT_GT(raised, 0);  // the bound says more than the baseline somewhere
  EXPECT_GT(compared, 200);
  EXPECT_GT(feasible, 100);
}

// Beyond the exhaustive search's reach (up to 24 operators and units): the
// search within 5 s, and the program's schedule; every schedule passes the
// checker; the search's optimum and bound are never above the program's
// schedule (whose space is a part of the search's), and the program
// proves nothing of its own.
// RegretAt cuts each warm start after the configuration's at the cheapest
// overhead so far: on the archived traces of 15 to 24 operators at four
// budgets, the cheapest checked schedule among the cut runs is the
// cheapest among every accepted pair run without limits; and warm starts
// due after the deadline are skipped, not run.
TEST(RunSchedule, WarmStartCutsKeepTheCheapest) {
  std::vector<RunConfig> all;
  for (const RuntimeHeuristic& pair : AcceptedPairs()) {
    RunConfig c;
    c.runtime = pair.runtime;
    c.heuristic = pair.heuristic;
    all.push_back(c);
  }
  int compared = 0, cut = 0;
  for (const auto& [name, g] : SmallTraces(24)) {
    RematProblem p = MakeRematProblem(g);
    if (p.nodes.size() <= 14) continue;
    const Baseline baseline = RunBaseline(g, "RuntimeV2EagerOptimized");
    const std::vector<Int> budgets = Budgets(g, p);
    for (Int budget : {budgets[1], budgets[3], budgets[5], budgets[7]}) {
      std::vector<RunAsSchedule> full;
      for (const RunConfig& c : all) full.push_back(ScheduleOfRun(g, p, c, baseline, budget));
      const std::optional<Incumbent> cheapest = CheapestIncumbent(full);
      OptimalOptions o;
      o.engine = OptimalEngine::kSearch;
      o.time_limit_seconds = 0.01;
      Regret r = RegretAt(g, p, RunConfig{}, baseline, budget, o, all);
      const std::optional<Incumbent> kept = CheapestIncumbent(r.warm);
      const std::string at = name + " at " + IntToString(budget);
      ASSERT_EQ(kept.has_value(), cheapest.has_value()) << at;
      if (cheapest) {
        EXPECT_TRUE(kept->compute == cheapest->compute) << at;
      }
      size_t ok_full = 0, ok_cut = 0;
      for (const RunAsSchedule& w : full) ok_full += w.incumbent.has_value();
      for (const RunAsSchedule& w : r.warm) ok_cut += w.incumbent.has_value();
      cut += ok_cut < ok_full;
      ++compared;
      // A deadline already past: only the configuration's own run.
      OptimalOptions late = o;
      late.deadline = std::chrono::steady_clock::now();
      Regret none = RegretAt(g, p, RunConfig{}, baseline, budget, late, all);
      EXPECT_EQ(none.warm.size(), 1u) << at;
      EXPECT_EQ(none.warm_skipped, all.size() - 1) << at;  // the configuration is among them
    }
  }
  EXPECT_GT(compared, 10);
  EXPECT_GT(cut, 0);  // the cut did end runs that bound nothing
}

TEST(Optimal, EnginesAgreeOnLargerTraces) {
  int proven = 0;
  for (const auto& [name, g] : SmallTraces(24)) {
    RematProblem p = MakeRematProblem(g);
    if (p.nodes.size() <= 14 && p.units.size() <= 14) continue;  // compared above
    const std::vector<Int> all = Budgets(g, p);
    for (Int budget : {all[2], all[4], all[6], all.back()}) {
      OptimalOptions search, milp;
      search.engine = OptimalEngine::kSearch;
      milp.engine = OptimalEngine::kMilp;
      search.time_limit_seconds = milp.time_limit_seconds = 5;
      OptimalResult s = SolveOptimal(p, budget, search), m = SolveOptimal(p, budget, milp);
      const std::string at = name + " at " + IntToString(budget);
      for (const OptimalResult* r : {&s, &m})
        if (r->compute) {
          ScheduleCheck c = CheckSchedule(g, ToSchedule(p, r->steps), budget);
          EXPECT_TRUE(c.ok) << at << " (" << r->engine << "): " << c.error;
          EXPECT_TRUE(c.compute == *r->compute) << at;
        }
      // CBC alone proves an optimum only by reaching the live-memory bound,
      // the one bound it reports.
      if (m.status == OptimalStatus::kOptimal) {
        EXPECT_NE(m.proof.find("live-memory"), std::string::npos) << at << ": " << m.proof;
        if (s.status == OptimalStatus::kOptimal) {
          EXPECT_TRUE(s.compute == m.compute) << at;
        }
      } else if (m.status != OptimalStatus::kInfeasible) {
        EXPECT_EQ(m.best_bound, IntToDouble(LiveMemoryLowerBound(p, budget).compute)) << at;
      }
      if (s.status == OptimalStatus::kOptimal) {
        EXPECT_LE(m.best_bound, IntToDouble(*s.compute) + 1e-6) << at;
      }
      if (m.compute) {
        EXPECT_LE(s.best_bound, IntToDouble(*m.compute) + 1e-6) << at;
        EXPECT_NE(s.status, OptimalStatus::kInfeasible) << at;
        if (s.compute) {
          EXPECT_TRUE(*s.compute <= *m.compute) << at;
        }
      }
      proven += s.status == OptimalStatus::kOptimal || s.status == OptimalStatus::kInfeasible;
    }
  }
  RecordProperty("proven", proven);
  EXPECT_GT(proven, 40);
}

// A bisection stopped after a few solves (Ctrl-C in `optimal
// --smallest-budget`) says so and keeps its bracket, which holds the
// answer the whole bisection finds.
TEST(Optimal, CancelledBisectionKeepsItsBracket) {
  const auto traces = SmallTraces(14);
  ASSERT_FALSE(traces.empty());
  const Graph& g = traces.front().second;
  RematProblem p = MakeRematProblem(g);
  const Int peak = RunBaseline(g, "RuntimeV2EagerOptimized").peak;
  SmallestBudget whole = SmallestFeasibleBudget(p, peak);
  ASSERT_TRUE(whole.budget.has_value());
  ASSERT_GT(whole.solves, 3);
  std::atomic<bool> cancel{false};
  BisectionHooks hooks;
  hooks.cancel = &cancel;
  int steps = 0;
  hooks.on_step = [&](const SmallestBudget&) { cancel = ++steps == 3; };
  SmallestBudget part = SmallestFeasibleBudget(p, peak, {}, hooks);
  EXPECT_TRUE(part.cancelled);
  EXPECT_FALSE(part.budget.has_value());
  EXPECT_EQ(part.solves, 3);
  ASSERT_TRUE(part.feasible.has_value());
  EXPECT_TRUE(part.infeasible < *whole.budget && *whole.budget <= *part.feasible)
      << IntToString(part.infeasible) << " " << IntToString(*whole.budget);
  EXPECT_FALSE(whole.cancelled);
  EXPECT_TRUE(whole.feasible == whole.budget);
}

}  // namespace
}  // namespace dtrcheck

namespace dtrcheck {
namespace {

// The properties of an optimum, on every archived counterexample of up to
// 24 operators, at 17 budgets from the constants alone to everything
// resident, against four heuristics and the entry's own configuration:
// the optimal compute never grows with the budget; it is never above a
// heuristic's model + remat compute where the heuristic is ok; the
// smallest feasible budget of the optimum is at most the heuristic's.
TEST(OptimalProperties, MonotoneAndNeverAboveAHeuristic) {
  int checked = 0;
  for (const auto& [name, g] : SmallTraces(24)) {
    RematProblem p = MakeRematProblem(g);
    Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
    Int everything = 0;
    for (const RematUnit& u : p.units) everything += u.size;
    std::vector<Int> budgets;
    for (int i = 0; i <= 16; ++i) budgets.push_back(p.fixed_at_end + everything * i / 16);
    std::vector<std::optional<Int>> optimum;
    for (Int b : budgets) {
      OptimalResult r = SolveOptimal(p, b);
      ASSERT_TRUE(r.status == OptimalStatus::kOptimal || r.status == OptimalStatus::kInfeasible)
          << name << " at " << IntToString(b) << ": " << OptimalStatusName(r.status);
      optimum.push_back(r.compute);
    }
    for (size_t i = 1; i < budgets.size(); ++i)
      if (optimum[i - 1]) {
        ASSERT_TRUE(optimum[i].has_value()) << name << ": feasible, then not, at a larger budget";
        EXPECT_TRUE(*optimum[i] <= *optimum[i - 1]) << name << " at " << IntToString(budgets[i]);
      }
    for (const char* heuristic : {"DTR", "MSPS", "LRU", "DTREqClass"}) {
      RunConfig config;
      config.heuristic = heuristic;
      std::optional<size_t> first_ok;
      for (size_t i = 0; i < budgets.size(); ++i) {
        config.budget = budgets[i];
        RunRecord rec = Simulate(g, config, base);
        if (rec.status != Status::kOk) continue;
        if (!first_ok) first_ok = i;
        ASSERT_TRUE(optimum[i].has_value())
            << name << ": " << heuristic << " is ok at " << IntToString(budgets[i])
            << " where the optimum is infeasible";
        EXPECT_TRUE(*optimum[i] <= rec.model_compute + rec.remat_compute)
            << name << ": " << heuristic << " at " << IntToString(budgets[i]) << " computes "
            << IntToString(rec.model_compute + rec.remat_compute) << ", the optimum "
            << IntToString(*optimum[i]);
        ++checked;
      }
      if (first_ok) {
        size_t first_optimal = 0;
        while (!optimum[first_optimal]) ++first_optimal;
        EXPECT_LE(first_optimal, *first_ok) << name << ": " << heuristic;
      }
    }
  }
  EXPECT_GT(checked, 500);
}

size_t ThreadCount() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

bool Mapped(const std::string& name) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}

// This binary does not link CBC: the first solve loads the module
// (optimal/cbc_module.h), which brings LAPACK, which Debian resolves to
// OpenBLAS where it is installed (as on this project's machines), whose
// workers start as it loads (optimal/blas_threads.h). The loader stops them.
// ctest runs each test in a process of its own, so the module is loaded
// here for the first time; run by hand after other tests, only what
// follows the solve is checked.
TEST(CbcModule, LoadedOnFirstSolveLeavingOneThread) {
  if (!Mapped("dtrcheck_cbc.so")) {
    EXPECT_FALSE(Mapped("libCbc")) << "CBC is loaded before any solve";
    EXPECT_EQ(ThreadCount(), 1u);
  }
  Graph g = ParseTrace(kDiamond, "diamond.log");
  RematProblem p = MakeRematProblem(g);
  EXPECT_EQ(MilpLpBound(p, 400, SolveLimits{}).outcome, LpRelaxation::kBound);
  EXPECT_TRUE(Mapped("dtrcheck_cbc.so"));
  EXPECT_TRUE(Mapped("libCbc"));
  EXPECT_EQ(ThreadCount(), 1u);
  using GetThreads = int (*)();
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  if (get) {
    EXPECT_EQ(get(), 1);
  }
}

TEST(BlasThreads, StopLeavesOneThread) {
  StopBlasWorkerThreads();
  EXPECT_EQ(ThreadCount(), 1u);
}

}  // namespace
}  // namespace dtrcheck
