// One simulation, end to end, as the oracle runs it in simrd:
//   baseline: an unbounded run of the baseline runtime with simrd's base
//             Heuristic gives the peak memory and the model compute;
//   budget:   given in bytes, or int(peak * ratio) with Python's float math;
//   limit:    remat_limit = baseline_compute * (overhead_limit - 1), or given;
//   run:      the schedule under the budget; status ok, oom or thrashed.
// This is the one place where a configuration becomes a RunRecord; the CLI,
// the sweeps, the properties, the fuzzers and the reducer all call it.
#ifndef DTRCHECK_SIM_SIMULATE_H_
#define DTRCHECK_SIM_SIMULATE_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/graph.h"
#include "sim/placed_memory.h"
#include "sim/python/py_arith.h"
#include "sim/region.h"
#include "sim/telemetry.h"

namespace dtrcheck {

struct RunConfig {
  std::string runtime = "RuntimeV2EagerOptimized";
  std::string heuristic = "DTR";
  std::string baseline_runtime = "RuntimeV2EagerOptimized";
  std::optional<Int> budget;             // bytes
  std::optional<double> ratio;           // of the baseline peak
  std::optional<double> overhead_limit;  // remat_limit = compute * (X - 1)
  std::optional<Int> remat_limit;        // absolute
  // The float limit an overhead limit gave, as a record keeps it: a record
  // read back (io/record) runs again under the same limit (exactly the same
  // float), not unlimited.
  std::optional<double> remat_limit_float;
  std::optional<Int> seed;                                   // random.seed(S) for RandomStorage
  bool stats = false;                                        // per-storage statistics in the record
  int64_t perturb_eviction = -1;                             // testing aid, see RuntimeOptions
  RegionRebuilds region_rebuilds = RegionRebuilds::kUpdate;  // see RuntimeOptions
  MemoryOptions memory;                                      // see RuntimeOptions
};

struct Baseline {
  Int peak = 0;     // max_memory of the unbounded run
  Int compute = 0;  // its model_compute
};

enum class Status { kOk, kOom, kThrashed, kError };
const char* StatusName(Status s);

struct StorageStatRow {
  int64_t root_id;
  Int size;
  int64_t evict_count, direct_remat_count, collateral_remat_count;
};

struct RunRecord {
  RunConfig config;
  std::optional<Int> seed_used;  // the seed random was seeded with, if any
  Int budget = 0;
  std::optional<double> remat_limit_float;
  std::optional<Int> remat_limit_int;
  Status status = Status::kOk;
  std::string message;  // for kError: the simrd assertion that failed
  Int clock = 0, model_compute = 0, remat_compute = 0, max_memory = 0;
  Int model_const_memory = 0, bottleneck_memory = 0;
  Int heuristic_eval_count = 0, heuristic_access_count = 0;
  Int memory_usage = 0;
  int64_t evictions = 0, distinct_evicted = 0;
  std::string eviction_digest;
  Baseline baseline;
  std::vector<StorageStatRow> storage_stats;
  // Under an allocator model (--memory other than bytes) only.
  std::optional<MemoryRecord> memory;

  // (model + remat compute) / model compute of the baseline; clock is one more.
  double Overhead() const;
};

// Unbounded run of `runtime` with simrd's base Heuristic.
// Throws std::invalid_argument for an unknown runtime name.
Baseline RunBaseline(const Graph& graph, const std::string& runtime);

// int(peak * ratio), as Python computes it.
Int BudgetFromRatio(Int peak, double ratio);

// The record of config before it runs: its budget (bytes, or a ratio of the
// baseline peak), its remat limit (remat_limit_float from an overhead limit,
// as simrd computes it, or the limit given) and the seed random is seeded
// with. Simulate runs under these; a resumed sweep matches its records by
// them. Throws std::invalid_argument without a budget or a ratio.
RunRecord RecordBeforeRun(const RunConfig& config, const Baseline& baseline);

// What Simulate does with its runtime at the end: frees it, or, for a
// process that exits right after, leaves it to the kernel
// (base/leave_to_exit.h).
enum class Teardown { kFree, kLeaveToExit };

// Runs one configuration. Throws std::invalid_argument for unknown names
// (the message lists the valid ones) and for a runtime/heuristic pair that
// simrd refuses; simulation outcomes are in the record's status.
RunRecord Simulate(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                   RuntimeObserver* observer = nullptr, Teardown teardown = Teardown::kFree);

// Simulate(graph, configs[i], baseline) for every i, for configurations
// that differ only in their budget or ratio (std::invalid_argument if not,
// and for what Simulate refuses, before anything runs). Each record goes to
// on_record(i, record) as it is done, in increasing order of budget. The
// runs share the part of the schedule they have in common: every run is the
// unbounded run until its budget is first exceeded, so that prefix is run
// once and copied (Runtime's fork constructor), not once per budget. The
// records are Simulate's, field for field. `observer` sees the commands of
// every runtime involved (a way to cancel); OnStart and OnFinish are not called.
void SimulateBudgets(const Graph& graph, const std::vector<RunConfig>& configs,
                     const Baseline& baseline,
                     const std::function<void(size_t, RunRecord&&)>& on_record,
                     RuntimeObserver* observer = nullptr);

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_SIMULATE_H_
