// The optimum fuzzer's checks (optimal/optimum_fuzz.h): clean on generated
// traces; a defect planted in the optimum's answer is caught, reduced with
// reduce/'s reducer (as `dtrcheck fuzz-optimal` does), archived and
// replayed; a changed archive is refused.
#include "optimal/optimum_fuzz.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fuzz/lib/diff_case.h"
#include "io/trace_writer.h"
#include "reduce/reducer.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

namespace fs = std::filesystem;

TraceLog SmallTrace() {
  GeneratorParams g;
  g.shape = "resnet";
  g.seed = 3;
  g.layers = 2;
  g.width = 1;
  return GenerateTrace(g);
}

ShrinkResult ShrinkWithReducer(const TraceLog& start,
                               const std::function<bool(const TraceLog&)>& interesting) {
  ReduceResult r = Reduce(start, interesting);
  return {r.log, r.tests, r.minimal};
}

size_t Count(const OptimumAtBudget& at, const std::string& kind) {
  size_t n = 0;
  for (const OptimumViolation& v : at.violations) n += v.kind == kind;
  return n;
}

TEST(OptimumFuzz, RatiosAreAFunctionOfSeedAndIndex) {
  const std::vector<double> a = OptimumFuzzRatios(7, 3);
  EXPECT_EQ(a, OptimumFuzzRatios(7, 3));
  EXPECT_NE(a, OptimumFuzzRatios(7, 4));
  ASSERT_EQ(a.size(), 3u);
  EXPECT_GE(a[0], 0.2);
  EXPECT_LT(a[0], 0.5);
  EXPECT_GE(a[1], 0.5);
  EXPECT_LT(a[1], 0.8);
  EXPECT_GE(a[2], 0.8);
  EXPECT_LE(a[2], 1.0);
}

// The generated trace at three budgets: every pair runs, the ok runs'
// schedules check, the solves agree with them, no violation.
TEST(OptimumFuzz, CleanOnAGeneratedTrace) {
  const TraceLog log = SmallTrace();
  OptimumFuzzOptions o;
  o.solve_seconds = 5;
  const OptimumCaseResult r = CheckOptimumCase(log, {}, {0.5, 0.8, 1.0}, o);
  ASSERT_TRUE(r.refusal.empty()) << r.refusal;
  ASSERT_EQ(r.budgets.size(), 3u);
  for (const OptimumAtBudget& at : r.budgets) {
    EXPECT_GT(at.runs, 80u);  // every accepted pair
    EXPECT_TRUE(at.violations.empty()) << OptimumAtBudgetToJson(at).dump(2);
    ASSERT_EQ(at.solves.size(), 3u);
  }
  // At the peak every pair is ok and runs without recomputation: the
  // optimum is the baseline compute, proven.
  const OptimumAtBudget& peak = r.budgets.back();
  EXPECT_EQ(peak.ok_runs, peak.runs);
  ASSERT_TRUE(peak.cheapest);
  EXPECT_EQ(peak.solves[0].result.status, OptimalStatus::kOptimal);
  EXPECT_EQ(peak.solves[0].result.compute, peak.cheapest);
}

// A trace that does not parse (no START annotation, which the parse
// options require) is a refusal, not a violation nor a crash.
TEST(OptimumFuzz, RefusesATraceThatDoesNotParse) {
  TraceLog log = SmallTrace();
  std::erase_if(log.instrs, [](const TraceInstr& i) { return i.op == TraceOp::kAnnotate; });
  const OptimumCaseResult r = CheckOptimumCase(log, {}, {0.5}, {});
  EXPECT_FALSE(r.refusal.empty());
  EXPECT_TRUE(r.budgets.empty());
}

struct Planted {
  std::string plant, kind;
};
void PrintTo(const Planted& p, std::ostream* os) { *os << p.plant << " -> " << p.kind; }

class PlantedDefect : public ::testing::TestWithParam<Planted> {};

// The planted defect is caught at a budget where a run is ok, reduced to a
// smaller trace that still shows it (and does not without the plant),
// archived and replayed.
TEST_P(PlantedDefect, IsCaughtReducedArchivedAndReplayed) {
  const TraceLog log = SmallTrace();
  OptimumFuzzOptions o;
  o.solve_seconds = 5;
  o.plant = GetParam().plant;
  const OptimumCaseResult r = CheckOptimumCase(log, {}, {0.9}, o);
  ASSERT_EQ(r.budgets.size(), 1u);
  const OptimumAtBudget& at = r.budgets[0];
  ASSERT_GT(at.ok_runs, 0u);
  ASSERT_EQ(Count(at, GetParam().kind), 1u) << OptimumAtBudgetToJson(at).dump(2);

  const ReducedViolation red =
      ReduceOptimumViolation(log, {}, at.budget, GetParam().kind, o, ShrinkWithReducer, 300);
  EXPECT_LT(red.log.NumOperators(), log.NumOperators());
  EXPECT_TRUE(ShowsOptimumViolation(red.log, {}, at.budget, GetParam().kind, o));
  OptimumFuzzOptions clean = o;
  clean.plant.clear();
  EXPECT_FALSE(ShowsOptimumViolation(red.log, {}, at.budget, GetParam().kind, clean));

  const fs::path archive =
      fs::temp_directory_path() / ("optimum_fuzz_test_" + std::to_string(getpid()) + o.plant);
  fs::remove_all(archive);
  OptimumProvenance p;
  p.commit = "test";
  const std::string id =
      ArchiveOptimumViolation(archive.string(), log, {}, at.budget, GetParam().kind, red, o, p);
  const fs::path entry = archive / id;
  ASSERT_TRUE(fs::exists(entry / "manifest.json"));
  EXPECT_EQ(ReadTraceLogFile((entry / "trace.log").string()).NumOperators(),
            red.log.NumOperators());
  const OptimumReplay replay = ReplayOptimumViolation(entry.string(), {});
  EXPECT_EQ(replay.status, "planted");
  EXPECT_EQ(replay.kind, GetParam().kind);
  EXPECT_TRUE(replay.shows);
  EXPECT_FALSE(replay.shows_unplanted);
  // An archived trace that changed is refused, naming the manifest.
  std::ofstream(entry / "trace.log", std::ios::app) << "\n";
  try {
    ReplayOptimumViolation(entry.string(), {});
    ADD_FAILURE() << "a changed trace was replayed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("changed since it was archived"), std::string::npos)
        << e.what();
  }
  fs::remove_all(archive);
}

INSTANTIATE_TEST_SUITE_P(Plants, PlantedDefect,
                         ::testing::Values(Planted{"infeasible", "infeasible-where-ok"},
                                           Planted{"bound", "bound-above-schedule"}),
                         [](const auto& info) { return info.param.plant; });

// The committed archive (corpus/optimal-violation/) replays as archived:
// its planted entry is still caught, and clean without its plant.
TEST(OptimumFuzz, ArchivedEntriesReplay) {
  const fs::path corpus = fs::path(DTRCHECK_SOURCE_DIR) / "corpus" / "optimal-violation";
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(corpus)) {
    if (!fs::exists(e.path() / "manifest.json")) continue;
    ++entries;
    const OptimumReplay r = ReplayOptimumViolation(e.path().string(), {});
    if (r.status == "planted") {
      EXPECT_TRUE(r.shows) << e.path();
      EXPECT_FALSE(r.shows_unplanted) << e.path();
    } else {
      EXPECT_EQ(r.shows_unplanted, r.status == "open") << e.path();
    }
  }
  EXPECT_GT(entries, 0u);
}

}  // namespace
}  // namespace dtrcheck
