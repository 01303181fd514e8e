// The optimum of a simrd trace under a budget, as every user of optimal/
// needs it: the Graph made a RematProblem, solved, its schedule written in
// operator terms and replayed by the independent checker, and the overhead
// computed as dtrcheck's records compute theirs (RunRecord::Overhead: total
// compute over the unbounded baseline run's compute). `dtrcheck optimal`,
// check-finding and the properties all go through here.
#ifndef DTRCHECK_OPTIMAL_TRACE_OPTIMUM_H_
#define DTRCHECK_OPTIMAL_TRACE_OPTIMUM_H_

#include <optional>
#include <string>

#include "io/json_fields.h"
#include "optimal/milp_solver.h"
#include "optimal/remat_problem.h"
#include "optimal/schedule.h"
#include "sim/graph.h"

namespace dtrcheck {

struct TraceOptimum {
  Int budget = 0;
  size_t nodes = 0;          // non-constant operators of the trace
  Int baseline_compute = 0;  // the denominator of every overhead
  OptimalResult result;
  Schedule schedule;    // empty unless result.compute
  ScheduleCheck check;  // the schedule replayed (check.ok false without one)
  // (total compute) / baseline compute, when a schedule was found.
  std::optional<double> Overhead() const;
  // The LP relaxation's bound as an overhead: no schedule does better.
  double LpOverhead() const;
};

TraceOptimum SolveTraceOptimum(const Graph& g, const RematProblem& p, Int budget,
                               Int baseline_compute, const OptimalOptions& options = {});

// The schedule of a solution in the Graph's operators.
Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps);

// "optimal", "feasible (not proven optimal)"... with compute and overhead.
Json TraceOptimumToJson(const TraceOptimum& o);

// The smallest budget in [lo, hi] at which a schedule exists (feasibility
// of the optimum is monotone in the budget: a schedule under B fits under
// any larger budget), by bisection to the byte; nullopt if hi is
// infeasible or a solve in between was not proven either way.
struct SmallestFeasible {
  std::optional<Int> budget;
  int solves = 0;
  double seconds = 0;
};
SmallestFeasible SmallestFeasibleBudget(const RematProblem& p, Int lo, Int hi,
                                        const OptimalOptions& options = {});
// Every node resident at once beside the constants: a budget that is always
// feasible (each node computed once, nothing freed).
Int EverythingResident(const RematProblem& p);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_TRACE_OPTIMUM_H_
