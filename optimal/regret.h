// How far a heuristic is from the optimum on one trace and budget: the
// optimal schedule (optimal/milp_solver.h), checked by the independent
// checker (optimal/schedule.h), beside the heuristic's own run. Used by
// `dtrcheck optimal` and `dtrcheck check-finding --optimal`.
#ifndef DTRCHECK_OPTIMAL_REGRET_H_
#define DTRCHECK_OPTIMAL_REGRET_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/reduce_property.h"
#include "io/record.h"
#include "optimal/optimum.h"
#include "optimal/remat_problem.h"
#include "optimal/run_schedule.h"
#include "optimal/schedule.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct Regret {
  Int budget = 0;
  OptimalResult optimum;
  Schedule schedule;                       // the optimum's, in operator terms
  ScheduleCheck check;                     // of that schedule (ok is false when there is none)
  std::optional<double> optimum_overhead;  // total compute / baseline compute
  RunRecord heuristic;                     // the configuration's run at the budget
  // The heuristic's overhead minus the optimum's, when the heuristic is ok,
  // the optimum proven and the runtime within the model.
  std::optional<double> regret;
  // The warm starts' runs (the configuration's first): each ok run's
  // schedule, checked, bounds the optimum from above.
  std::vector<RunAsSchedule> warm;
  size_t warm_skipped = 0;  // warm starts not run: the deadline or an interrupt came first
  // An ok run whose schedule the model has no counterpart for (the claims
  // that rely on the model relaxing the runtime are withheld).
  std::vector<std::string> model_gaps;
};

// The runs whose schedules start the engines when none are named: DTR on
// RuntimeV2EagerOptimized, and `config` itself.
std::vector<RunConfig> DefaultWarmStarts(const RunConfig& config);

// The overhead limit of every run RegretAt makes that has none (the
// configuration's own, the warm starts): some heuristics thrash forever
// without one.
inline constexpr double kWarmStartOverheadCap = 100;

// `config`'s budget is replaced by `budget`. The engines start from the
// cheapest ok run among `config` and `warm_starts` (DefaultWarmStarts when
// empty) and `options.incumbent`. The warm starts after `config` run with
// the cheapest overhead so far as their limit (kWarmStartOverheadCap
// before any is ok), and are skipped once `options.deadline` or
// `options.cancel` has come. Throws std::invalid_argument for a
// configuration Simulate refuses.
Regret RegretAt(const Graph& g, const RematProblem& p, const RunConfig& config,
                const Baseline& baseline, Int budget, const OptimalOptions& options = {},
                const std::vector<RunConfig>& warm_starts = {});

// The summary of RegretAt as JSON (no schedule).
Json RegretToJson(const Regret& r);

// "optimal 1.083x" / "infeasible" / "feasible 1.1x (not proven)" / "not proven".
std::string DescribeOptimum(const Regret& r);

// The optimum at each budget of a reduced counterexample (lo, if any, then
// hi) beside the heuristic's runs, as the manifest's "optimal" block
// (analysis/finding_manifest.h):
//   {"lo": RegretToJson, "hi": ..., "proven_defect": bool, "verdict": text}
// An inversion or pinned-frontier oom whose failing budget has a proven
// schedule is a proven heuristic defect: memory was not the obstacle.
// The claims are withheld (proven_defect false, "withheld": why) for a
// runtime outside the model (RuntimeWithinModel), where an ok run's
// schedule is not the model's, or under an allocator memory model (the
// model sums bytes; its schedule is not placed).
Json FindingOptimum(const Graph& g, const PropertySpec& spec, const OptimalOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_REGRET_H_
