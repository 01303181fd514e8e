// The budget grid options of sweep, scan and ablate: --from, --to, --step as
// ratios of the baseline peak, or as bytes with --bytes; and --jobs.
#ifndef DTRCHECK_CLI_GRID_OPTIONS_H_
#define DTRCHECK_CLI_GRID_OPTIONS_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "analysis/sweep.h"

namespace dtrcheck {

struct GridOptions {
  std::string from, to, step;  // decimal text, kept as typed (see RatioGrid)
  bool bytes = false;
  int jobs = 0;  // 0: one per hardware thread
};

// The options are not marked required, so that a command can offer modes
// without a grid (sweep --merge); GridBudgets insists on them.
void AddGridOptions(CLI::App* cmd, GridOptions* o);
// The grid's budgets. Throws CLI::ValidationError for a malformed grid.
std::vector<BudgetSpec> GridBudgets(const GridOptions& o);
// Removes --budget and --ratio (added by AddSimulationOptions with
// budget_optional) from a command that takes its budgets otherwise.
void RemoveBudgetOptions(CLI::App* cmd);
// --jobs, with 0 meaning the number of hardware threads.
int EffectiveJobs(const GridOptions& o);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_GRID_OPTIONS_H_
