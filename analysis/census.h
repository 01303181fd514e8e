// A robustness census: how each policy (runtime + heuristic) behaves over a
// budget grid, summarized per policy x trace and summed per policy.
//
// The runs are ordinary sweep records (`dtrcheck sweep --heuristics ...
// --format jsonl`, sharded, resumed and merged as sweeps are); the census
// only reads them. The pathologies are those of analysis/pathology.h, found
// by AnalyzeSweep (analysis/scan.h) with scan's default settings; a
// pinned-frontier OOM is an inversion whose failed end, diagnosed, has an
// empty pool and locked bytes plus the request over the budget.
#ifndef DTRCHECK_ANALYSIS_CENSUS_H_
#define DTRCHECK_ANALYSIS_CENSUS_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/scan.h"
#include "analysis/sweep.h"

namespace dtrcheck {

struct CensusRow {
  std::string policy;  // heuristic, with " seed S" when seeded
  std::string trace;   // "all" in a per-policy sum
  std::string limit;   // the remat limit as the records give it ("none", "2x", or bytes)
  size_t points = 0, ok = 0, oom = 0, thrashed = 0;
  size_t inversions = 0, cliffs = 0, rises = 0, pinned_frontier = 0;
  std::optional<double> smallest_feasible;     // the smallest ok budget, as a fraction of peak
  std::optional<Int> smallest_feasible_bytes;  // the same budget in bytes (device capacity)
  // At each of CensusRatios(), in order: the overhead ("1.234") where the
  // records have an ok run at exactly that ratio, its status ("oom",
  // "thrashed") where the run failed, "-" where the grid lacks the ratio.
  // Fixed ratios compare policies at the same memory, which the
  // per-policy means (over different ok points) do not.
  std::vector<std::string> at_ratios;
  double mean_overhead = 0, worst_overhead = 0;  // over ok points (0 if none)
  // The area, over budget as a fraction of peak, between the raw overhead
  // curve of the ok points and its running best (the minimum over the same
  // and smaller budgets, which published Pareto plots show): 0 exactly when
  // overhead never rises with more memory. Trapezoids between adjacent ok
  // points.
  double hidden_cost = 0;
  // Under an allocator model (the policy then names it): the allocator-only
  // findings (analysis/allocator_pathology.h). The census prints their
  // columns only when some row has a model.
  bool allocator = false;
  size_t fragmentation_ooms = 0, allocator_inversions = 0, allocator_cliffs = 0;
  size_t reserved_peak_inversions = 0;
  // At the smallest ok budget, under an allocator: the most bytes the
  // allocator held reserved but not allocated at one time, as a fraction
  // of that budget (the device capacity): the room fragmentation cost where
  // memory is scarcest.
  std::optional<double> floor_fragmentation;
};

// The ratios of CensusRow::at_ratios: 0.3, 0.4, 0.5, 0.7, 0.9.
const std::vector<double>& CensusRatios();

// One policy on one trace: `points` ascending by budget, runs of `config`.
CensusRow CensusOfSweep(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                        std::vector<SweepPoint> points, int jobs);

// One trace's records as census rows: one policy per heuristic and seed,
// in the records' order, each its points sorted by budget and named
// `trace_name` (`dtrcheck census` and Python's census()).
std::vector<CensusRow> CensusOfRecords(const Graph& graph, const std::string& trace_name,
                                       const std::vector<RunRecord>& records, int jobs);

// A public trace's short name: "resnet32-56-9000000000.0-..." -> "resnet32".
std::string CensusTraceName(const std::string& trace_path);

// The per-policy sums (trace "all", in order of first appearance), to
// append: counts and hidden cost summed, worst the max, mean over every ok
// point, smallest feasible left empty (fractions of different peaks).
std::vector<CensusRow> CensusTotals(const std::vector<CensusRow>& rows);

std::string CensusMarkdown(const std::vector<CensusRow>& rows);
std::string CensusCsv(const std::vector<CensusRow>& rows);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_CENSUS_H_
