// The minimum-compute rematerialization schedule of a RematProblem under a
// memory budget, as a mixed-integer program solved by CBC (COIN-OR).
//
// The formulation is Checkmate's (Jain et al., MLSys 2020, section 4): the
// log's operators are stages; in stage t node t is computed, after any
// earlier nodes recomputed for it, in log order. Unlike Checkmate, what is
// kept and freed is a unit (one storage, or a view), not a whole node, so
// that an operator's outputs are freed one by one as in simrd; a node
// recomputed while some of its units are resident allocates only the
// others. The program is written out in milp_solver.cc and README.md.
#ifndef DTRCHECK_OPTIMAL_MILP_SOLVER_H_
#define DTRCHECK_OPTIMAL_MILP_SOLVER_H_

#include <optional>
#include <string>
#include <vector>

#include "optimal/remat_problem.h"
#include "optimal/schedule.h"

namespace dtrcheck {

enum class OptimalStatus {
  kOptimal,     // proven minimum
  kFeasible,    // a schedule, not proven minimal within the time limit
  kInfeasible,  // proven: no schedule fits the budget
  kNotProven,   // no schedule found and infeasibility not proven in time
};
const char* OptimalStatusName(OptimalStatus s);

struct OptimalOptions {
  double time_limit_seconds = 60;
};

// A schedule in problem terms: compute node `index`, or free unit `index`.
struct NodeStep {
  int index = 0;
  bool compute = true;
};

struct OptimalResult {
  OptimalStatus status = OptimalStatus::kNotProven;
  std::optional<Int> compute;  // the best schedule's total cost
  double lp_bound = 0;         // the LP relaxation's optimum: a lower bound
  double best_bound = 0;       // CBC's best bound (>= lp_bound)
  std::vector<NodeStep> steps;
  double seconds = 0;
  size_t variables = 0, constraints = 0;
};

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options = {});

// The steps in Graph terms, for the checker (optimal/schedule.h) and the file.
Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_MILP_SOLVER_H_
