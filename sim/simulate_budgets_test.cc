// SimulateBudgets (sim/simulate.h) against Simulate run once per budget:
// the same record, field for field, for every runtime, heuristics of each
// kind (regions, equivalence classes, random, unoptimized), remat limits
// that make runs thrash, and budgets from far below the peak to above it.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/record.h"
#include "io/trace_graph.h"
#include "sim/simulate.h"
#include "traces/synthetic/generators.h"

namespace dtrcheck {
namespace {

struct Pair {
  const char* runtime;
  const char* heuristic;
};
const Pair kPairs[] = {
    {"RuntimeV2EagerOptimized", "DTR"},
    {"RuntimeV2Optimized", "MSPS"},
    {"RuntimeV2EagerOptimized", "DTREqClass"},
    {"RuntimeV2Eager", "DTRUnopt"},
    {"RuntimeV2", "LRU"},
    {"RuntimeV1", "DTRLocal"},
    {"RuntimeV2Eager", "RandomStorage"},
};
const double kRatios[] = {0.05, 0.1, 0.2, 0.3, 0.3, 0.45, 0.6, 0.8, 0.95, 1.0, 1.5};

Graph Synthetic(const std::string& shape, uint64_t seed) {
  GeneratorParams p;
  p.shape = shape;
  p.seed = seed;
  p.layers = shape == "tree" ? 3 : 5;
  p.width = 2;
  return TraceLogGraph(GenerateTrace(p), shape);
}

TEST(SimulateBudgets, GivesSimulatesRecordForEveryBudget) {
  std::map<Status, int> statuses;
  for (const std::string& shape : GeneratorShapes())
    for (uint64_t seed : {0, 1}) {
      Graph g = Synthetic(shape, seed);
      for (const Pair& pair : kPairs)
        for (double limit : {0.0, 1.3}) {
          RunConfig base;
          base.runtime = pair.runtime;
          base.heuristic = pair.heuristic;
          base.stats = true;
          if (limit > 0) base.overhead_limit = limit;
          Baseline baseline = RunBaseline(g, base.baseline_runtime);
          std::vector<RunConfig> configs;
          for (double r : kRatios) {
            RunConfig c = base;
            c.ratio = r;
            configs.push_back(c);
          }
          RunConfig bytes = base;  // a byte budget among the ratios
          bytes.budget = baseline.peak / 4;
          configs.push_back(bytes);
          std::vector<std::string> shared(configs.size());
          std::vector<int> seen(configs.size(), 0);
          SimulateBudgets(g, configs, baseline, [&](size_t i, RunRecord&& rec) {
            shared[i] = RecordToJson(rec).dump();
            seen[i] += 1;
            statuses[rec.status] += 1;
          });
          for (size_t i = 0; i < configs.size(); ++i) {
            SCOPED_TRACE(shape + " seed " + std::to_string(seed) + " " + pair.runtime + "/" +
                         pair.heuristic + " limit " + std::to_string(limit) + " config " +
                         std::to_string(i));
            EXPECT_EQ(seen[i], 1);
            EXPECT_EQ(shared[i], RecordToJson(Simulate(g, configs[i], baseline)).dump());
          }
        }
    }
  // The comparison covers every outcome, not only ok runs.
  EXPECT_GT(statuses[Status::kOk], 0);
  EXPECT_GT(statuses[Status::kOom], 0);
  EXPECT_GT(statuses[Status::kThrashed], 0);
}

TEST(SimulateBudgets, RefusesConfigurationsThatDifferInMoreThanTheBudget) {
  Graph g = Synthetic("chain", 0);
  Baseline baseline = RunBaseline(g, "RuntimeV2EagerOptimized");
  RunConfig a;
  a.ratio = 0.5;
  RunConfig b = a;
  b.heuristic = "LRU";
  EXPECT_THROW(SimulateBudgets(g, {a, b}, baseline, [](size_t, RunRecord&&) {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace dtrcheck
