// The minimum-compute rematerialization schedule of a RematProblem under a
// memory budget, as a mixed-integer program solved by CBC (COIN-OR).
//
// The formulation is Checkmate's (Jain et al., MLSys 2020, section 4): the
// log's operators are stages; in stage t node t is computed, after any
// earlier nodes recomputed for it, in log order; R[t][i] says node i is
// computed in stage t, S[t][u] that unit u (a storage, or a node's views)
// is kept from stage t-1 into stage t, FREE[t][u][k] that storage u is
// freed right after node k is computed in stage t (when nothing later in
// the stage uses it and it is not kept). Memory after each computation,
// before the frees, is at most the budget. A views unit is kept only while
// the storages it views are, and a node is never recomputed while a storage
// it creates is resident. Minimise the total cost of the computed
// nodes. optimal/README.md states the program in full.
#ifndef DTRCHECK_OPTIMAL_MILP_SOLVER_H_
#define DTRCHECK_OPTIMAL_MILP_SOLVER_H_

#include <optional>
#include <string>
#include <vector>

#include "optimal/remat_problem.h"

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

// A schedule in the problem's terms: compute node `index` (compute) or
// free the storage of unit `index` (!compute).
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

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_MILP_SOLVER_H_
