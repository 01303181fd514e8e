// SimulateBudgets (sim/simulate.h) against Simulate run once per budget:
// the same record, field for field, for every runtime, heuristics of each
// kind (regions, equivalence classes, random, unoptimized), remat limits
// that make runs thrash, and budgets from far below the peak to above it.
// And RecordBeforeRun, by which a resumed sweep knows its records: the
// budget, limit and seed Simulate runs under.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "io/record.h"
#include "io/trace_graph.h"
#include "sim/parse.h"
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

// Under an allocator model the forks copy the allocator and give it the
// fork's budget as its capacity (cuda-caching: valid while no cudaMalloc has
// asked for more; arena: only before its first request). Every record,
// the allocator's figures included, is still Simulate's.
void ExpectSimulatesRecords(const Graph& g, const RunConfig& base,
                            const std::vector<double>& ratios, std::map<Status, int>* statuses) {
  Baseline baseline = RunBaseline(g, base.baseline_runtime);
  std::vector<RunConfig> configs;
  for (double r : ratios) {
    RunConfig c = base;
    c.ratio = r;
    configs.push_back(c);
  }
  std::vector<std::string> shared(configs.size());
  SimulateBudgets(g, configs, baseline, [&](size_t i, RunRecord&& rec) {
    ASSERT_TRUE(rec.memory.has_value());
    shared[i] = RecordToJson(rec).dump();
    (*statuses)[rec.status] += 1;
  });
  for (size_t i = 0; i < configs.size(); ++i) {
    SCOPED_TRACE(MemoryModelName(base.memory.model) + " " + base.heuristic + " ratio " +
                 std::to_string(ratios[i]));
    EXPECT_EQ(shared[i], RecordToJson(Simulate(g, configs[i], baseline)).dump());
  }
}

TEST(SimulateBudgets, GivesSimulatesRecordUnderAllocatorModels) {
  std::map<Status, int> statuses;
  for (MemoryModel model : {MemoryModel::kCudaCaching, MemoryModel::kArena})
    for (const std::string& shape : GeneratorShapes())
      for (const Pair& pair : {kPairs[0], kPairs[1], kPairs[4]}) {
        RunConfig base;
        base.runtime = pair.runtime;
        base.heuristic = pair.heuristic;
        base.memory.model = model;
        ExpectSimulatesRecords(Synthetic(shape, 0), base, {0.3, 0.6, 0.95, 1.0, 1.5, 100.0},
                               &statuses);
      }
  // A public trace whose tensors span both of cuda-caching's pools.
  const char* dir = std::getenv("DTRCHECK_TRACES");
  const std::string path =
      std::string(dir ? dir : "") + "/resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log";
  if (dir && *dir && std::filesystem::exists(path)) {
    const Graph g = ParseTraceFile(path);
    for (MemoryModel model : {MemoryModel::kCudaCaching, MemoryModel::kArena}) {
      RunConfig base;
      base.memory.model = model;
      if (model == MemoryModel::kCudaCaching) base.memory.max_split_size_mb = 64;
      ExpectSimulatesRecords(g, base, {0.4, 0.5, 0.7, 1.0, 1.2, 3.0}, &statuses);
    }
  }
  EXPECT_GT(statuses[Status::kOk], 0);
  EXPECT_GT(statuses[Status::kOom], 0);
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

TEST(RecordBeforeRun, IsWhatSimulateRunsUnder) {
  Graph g = Synthetic("chain", 0);
  Baseline baseline = RunBaseline(g, "RuntimeV2EagerOptimized");
  ASSERT_GT(baseline.compute, 0);
  std::vector<RunConfig> configs(5);
  configs[0].ratio = 0.5;
  configs[0].overhead_limit = 1.25;
  configs[1].budget = baseline.peak / 3;
  configs[1].remat_limit = 7;
  configs[2].ratio = 0.3;
  configs[2].remat_limit_float = 12.5;  // as a record read back carries it
  configs[3].ratio = 0.4;
  configs[3].heuristic = "RandomStorage";
  configs[3].runtime = "RuntimeV2Eager";
  configs[4].ratio = 0.4;
  configs[4].seed = 3;
  for (size_t i = 0; i < configs.size(); ++i) {
    SCOPED_TRACE("config " + std::to_string(i));
    const RunRecord before = RecordBeforeRun(configs[i], baseline);
    const RunRecord after = Simulate(g, configs[i], baseline);
    EXPECT_EQ(before.budget, after.budget);
    EXPECT_EQ(before.remat_limit_float, after.remat_limit_float);
    EXPECT_EQ(before.remat_limit_int, after.remat_limit_int);
    EXPECT_EQ(before.seed_used, after.seed_used);
  }
  // simrd: budget = int(peak * ratio); remat_limit = compute * (X - 1) in floats.
  EXPECT_EQ(RecordBeforeRun(configs[0], baseline).budget, baseline.peak / 2);
  EXPECT_EQ(RecordBeforeRun(configs[0], baseline).remat_limit_float,
            static_cast<double>(baseline.compute) * 0.25);
  EXPECT_EQ(RecordBeforeRun(configs[1], baseline).remat_limit_int, Int(7));
  EXPECT_EQ(RecordBeforeRun(configs[2], baseline).remat_limit_float, 12.5);
  EXPECT_EQ(RecordBeforeRun(configs[3], baseline).seed_used, Int(0));  // random.seed(0)
  EXPECT_EQ(RecordBeforeRun(configs[4], baseline).seed_used, Int(3));
  EXPECT_THROW(RecordBeforeRun(RunConfig{}, baseline), std::invalid_argument);
}

}  // namespace
}  // namespace dtrcheck
