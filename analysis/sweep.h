// Budget sweeps: one configuration run at many budgets.
//
// This is the one sweep mechanism of dtrcheck; the sweep/scan/reproduce
// commands, the property tests, the fuzzers and the reducer all use it. The
// trace is parsed and the baseline run once by the caller; RunSweep only
// varies the budget. The points of each worker thread share the part of
// the schedule their runs have in common (SimulateBudgets, sim/simulate.h);
// each result is Simulate's record for its budget, stored at the index of
// that budget, so what a caller sees never depends on the number of threads
// or on their timing.
#ifndef DTRCHECK_ANALYSIS_SWEEP_H_
#define DTRCHECK_ANALYSIS_SWEEP_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/graph.h"
#include "sim/python/py_arith.h"
#include "sim/simulate.h"

namespace dtrcheck {

// The ratios from, from+step, ..., up to `to` inclusive, given as decimal
// text ("0.1", "0.150", "1e-3"). Element i is the double nearest to the
// decimal value from + i*step, computed exactly in scaled integers: element 3
// of RatioGrid("0.1", "0.15", "0.001") is the double of the literal 0.103,
// the same as `--ratio 0.103`. Accumulating doubles would drift instead.
// Throws std::invalid_argument for malformed text, step <= 0, to < from, or
// more than kMaxGridPoints points.
std::vector<double> RatioGrid(std::string_view from, std::string_view to, std::string_view step);

// Byte budgets from, from+step, ..., up to `to` inclusive. Same errors.
std::vector<Int> ByteGrid(Int from, Int to, Int step);

constexpr size_t kMaxGridPoints = 10'000'000;

// One budget of a sweep: a ratio of the baseline peak (budget int(peak*r),
// as in `--ratio`) or a number of bytes (as in `--budget`).
struct BudgetSpec {
  std::optional<double> ratio;
  Int bytes = 0;  // used when ratio is empty
  static BudgetSpec Ratio(double r) { return BudgetSpec{r, 0}; }
  static BudgetSpec Bytes(Int b) { return BudgetSpec{std::nullopt, b}; }
  // The budget in bytes under this baseline.
  Int Resolve(const Baseline& baseline) const;
};
std::vector<BudgetSpec> RatioBudgets(const std::vector<double>& ratios);
std::vector<BudgetSpec> ByteBudgets(const std::vector<Int>& bytes);

// `base` with its budget replaced by `spec` (ratio or bytes, never both).
RunConfig WithBudget(const RunConfig& base, const BudgetSpec& spec);

// A finished run of a sweep.
struct SweepPoint {
  size_t index = 0;  // position of its budget in the sweep's list
  RunRecord record;
  Int budget() const { return record.budget; }
  Status status() const { return record.status; }
  double overhead() const { return record.Overhead(); }
};

struct SweepOptions {
  int jobs = 1;  // worker threads; values < 1 mean 1
  // Called once per finished point, from the worker that ran it, under a
  // lock (calls never overlap), in completion order; `done` counts the
  // points finished so far in this call, out of `total`.
  std::function<void(const SweepPoint& point, size_t done, size_t total)> on_point;
  // When set (e.g. by a SIGINT handler), no new point starts and points in
  // progress are abandoned at their next schedule command; RunSweep then
  // returns the points that finished.
  const std::atomic<bool>* cancel = nullptr;
  // Indices of `budgets` to skip (already known, e.g. from --resume).
  std::vector<bool> skip;
};

struct SweepResult {
  std::vector<SweepPoint> points;  // the finished points, by index
  bool cancelled = false;
};

// Runs `base` at every budget in `budgets`. If a run throws (Simulate's
// std::invalid_argument for an invalid configuration), the other workers
// stop and the first exception is rethrown once they have.
SweepResult RunSweep(const Graph& graph, const RunConfig& base, const Baseline& baseline,
                     const std::vector<BudgetSpec>& budgets, const SweepOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_SWEEP_H_
