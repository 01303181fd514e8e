#include "cli/grid_options.h"

#include <stdexcept>

#include "analysis/parallel_for.h"
#include "cli/number_option.h"

namespace dtrcheck {

void AddGridOptions(CLI::App* cmd, GridOptions* o) {
  cmd->add_option("--from", o->from,
                  "first budget: a ratio of the baseline peak (bytes with --bytes)")
      ->check(NonEmptyNumber());
  cmd->add_option("--to", o->to, "last budget, inclusive when on the grid")
      ->check(NonEmptyNumber());
  cmd->add_option("--step", o->step, "grid step; ratio points are the exact decimals from + i*step")
      ->check(NonEmptyNumber());
  cmd->add_flag("--bytes", o->bytes, "--from/--to/--step are budgets in bytes, not ratios");
  cmd->add_option("--jobs,-j", o->jobs,
                  "worker threads (0: one per hardware thread); output does not depend on it")
      ->check(IntegerRange(0, 1024))
      ->capture_default_str();
}

std::vector<BudgetSpec> GridBudgets(const GridOptions& o) {
  if (o.from.empty() || o.to.empty() || o.step.empty())
    throw CLI::ValidationError("--from/--to/--step", "all three are required");
  try {
    if (!o.bytes) return RatioBudgets(RatioGrid(o.from, o.to, o.step));
    return ByteBudgets(ByteGrid(ParseIntOption(o.from, "--from", false),
                                ParseIntOption(o.to, "--to", false),
                                ParseIntOption(o.step, "--step", false)));
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("--from/--to/--step", e.what());
  }
}

void RemoveBudgetOptions(CLI::App* cmd) {
  for (const char* name : {"--budget", "--ratio"})
    if (auto* opt = cmd->get_option_no_throw(name)) cmd->remove_option(opt);
}

int EffectiveJobs(const GridOptions& o) {
  if (o.jobs > 0) return o.jobs;
  return DefaultJobs();
}

}  // namespace dtrcheck
