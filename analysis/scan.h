// A scan: sweep a grid of budgets, apply the pathology predicates, refine
// each finding by bisection and diagnose the failed end of each inversion.
// `dtrcheck scan` and `dtrcheck reproduce` are this plus reporting.
#ifndef DTRCHECK_ANALYSIS_SCAN_H_
#define DTRCHECK_ANALYSIS_SCAN_H_

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/pathology.h"
#include "analysis/refine.h"
#include "analysis/sweep.h"

namespace dtrcheck {

struct ScanSettings {
  double cliff_factor = 2.0;       // regime cliff: overheads >= this factor apart
  double cliff_fraction = 0.001;   // ... with budgets at most this fraction of peak apart
  std::optional<Int> cliff_bytes;  // ... or at most this many bytes apart
  double rise_factor = 1.5;        // overhead rise: a bigger budget's overhead > this factor
  bool refine = false;             // bisect each finding
  // Bisect down to this many bytes; 0 means 1/128 of the finding's interval
  // (7 halvings), 1 means adjacent bytes.
  Int tolerance = 0;
  bool diagnose = true;  // diagnose the failed end of each inversion
  int jobs = 1;
  const std::atomic<bool>* cancel = nullptr;
  // Progress of the sweep, then of the refinement (stage is "sweep" or "refine").
  std::function<void(const char* stage, size_t done, size_t total)> on_progress;
};

struct ScanFinding {
  Finding found;                        // between two grid points
  std::optional<RefineResult> refined;  // when ScanSettings::refine
  // Inversions: the run at the failed end (refined if refined), diagnosed.
  std::optional<Diagnosis> failure;
};

struct ScanResult {
  std::vector<SweepPoint> points;  // the finished grid points, budget order
  // Inversions, cliffs, overhead rises, then (under an allocator model)
  // fragmentation OOMs and reserved-peak inversions; an inversion or cliff
  // that bytes lacks is an allocator-inversion or allocator-cliff.
  std::vector<ScanFinding> findings;
  // Under an allocator model: the same budgets under bytes, budget order.
  std::vector<SweepPoint> bytes_points;
  Int cliff_gap = 0;  // the byte gap cliffs were searched within
  // Interrupted (ScanSettings::cancel): during the sweep, findings are those
  // of the finished points and nothing is refined; during the refinement,
  // some findings have no refinement.
  bool cancelled = false;
};

// `budgets` must be ascending. Refinements and diagnoses run on `jobs`
// threads, one finding each; results keep the order of the findings.
ScanResult RunScan(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                   const std::vector<BudgetSpec>& budgets, const ScanSettings& settings);

// The second half of RunScan, on points already run (e.g. read back from a
// sweep's jsonl): findings, then refinement and diagnosis. `points` must be
// ascending by budget and be runs of `config`.
ScanResult AnalyzeSweep(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                        std::vector<SweepPoint> points, const ScanSettings& settings);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_SCAN_H_
