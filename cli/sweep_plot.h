// Sweep plots: overhead against budget, one line per heuristic, with the
// budgets that ran out of memory or thrashed shaded (one heuristic) or shown
// as strips under the axis (several), and findings marked.
#ifndef DTRCHECK_CLI_SWEEP_PLOT_H_
#define DTRCHECK_CLI_SWEEP_PLOT_H_

#include <string>
#include <vector>

#include "analysis/pathology.h"
#include "cli/plot_svg.h"
#include "sim/simulate.h"

namespace dtrcheck {

// "overhead limit 8", "remat limit N" or "no remat limit".
std::string LimitText(const RunConfig& c);
// "resnet32-....log: DTR on RuntimeV2EagerOptimized, overhead limit 8": what
// a plot shows, so that two plots of different traces or limits cannot be
// confused. `trace` may be empty (merged records); several heuristics are
// listed.
std::string SweepPlotTitle(const std::string& trace, const std::vector<RunRecord>& records);

// `records` in sweep order (grouped by heuristic, budgets ascending).
// The x axis is the ratio when every record has one, else the budget in MB.
// No line joins two points across a failed run (oom, thrashed) or across a
// regime cliff among `findings`: the overhead does not change continuously
// there.
LinePlot SweepPlot(const std::vector<RunRecord>& records, const std::vector<Finding>& findings,
                   const std::string& title = "");
void WriteSweepPlot(const std::string& path, const std::vector<RunRecord>& records,
                    const std::vector<Finding>& findings, const std::string& title = "");

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SWEEP_PLOT_H_
