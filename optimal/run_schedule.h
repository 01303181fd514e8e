// A simulated run as a schedule of the optimal model: every compute (first
// or rematerializing) and every eviction the runtime made, in order, replayed
// by the independent checker (optimal/schedule.h). A run that ends ok and
// passes the checker is a schedule that fits its budget, so its cost bounds
// the optimum from above: the engines start from the cheapest such schedule
// (the warm start), and the optimum is never reported above an ok run.
//
// A run that ends ok but does not pass the checker is a gap between the
// model and simrd's semantics (RuntimeV1 frees a released constant by
// banishing it; the model keeps constants resident): `gap` says what.
#ifndef DTRCHECK_OPTIMAL_RUN_SCHEDULE_H_
#define DTRCHECK_OPTIMAL_RUN_SCHEDULE_H_

#include <optional>
#include <string>
#include <vector>

#include "io/record.h"
#include "optimal/optimum.h"
#include "optimal/remat_problem.h"
#include "optimal/schedule.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct RunAsSchedule {
  RunRecord record;
  Schedule schedule;                   // the run's computes and evictions
  ScheduleCheck check;                 // the checker's replay at the budget (when the run is ok)
  std::optional<Incumbent> incumbent;  // the run is ok and its schedule checks
  std::string gap;                     // the run is ok, its schedule is not the model's: why
};

// `config` run at `budget` (its ratio and budget replaced).
RunAsSchedule ScheduleOfRun(const Graph& g, const RematProblem& p, const RunConfig& config,
                            const Baseline& baseline, Int budget);

// The cheapest of the runs' incumbents (at equal cost, one in the engines'
// schedule space first), or nullopt when no run gave one.
std::optional<Incumbent> CheapestIncumbent(const std::vector<RunAsSchedule>& runs);

// Whether claims that rely on the model relaxing the runtime (a "proven
// defect", a regret) may be made for it: not for RuntimeV1, whose banishing
// frees released constants (optimal/README.md, "Where the optimum and
// simrd's runtime differ").
bool RuntimeWithinModel(const std::string& runtime);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_RUN_SCHEDULE_H_
