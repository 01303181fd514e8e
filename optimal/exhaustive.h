// The minimum-compute schedule by exhaustive search (Dijkstra over the set
// of resident nodes), for checking the solver on small problems.
//
// The search explores every schedule of the model in
// optimal/remat_problem.h: compute any node whose dependencies are
// resident (memory permitting), free any resident unit, run the log's
// nodes for the first time in order, recompute after the last one for the
// outputs, end with the outputs resident. With `log_order_within_stage`,
// the recomputations before each first run (and after the last) go in log
// order, as in Checkmate's formulation (optimal/milp_solver.h), so
// the two must agree exactly; without it the search may find cheaper
// schedules the formulation excludes, which measures what that restriction
// costs. Up to 24 operators and units (the state is a bit set).
#ifndef DTRCHECK_OPTIMAL_EXHAUSTIVE_H_
#define DTRCHECK_OPTIMAL_EXHAUSTIVE_H_

#include <optional>

#include "optimal/remat_problem.h"

namespace dtrcheck {

// The minimum total cost, or nullopt if no schedule fits the budget.
// Throws std::invalid_argument beyond 24 operators or units.
std::optional<Int> ExhaustiveOptimum(const RematProblem& p, Int budget,
                                     bool log_order_within_stage);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_EXHAUSTIVE_H_
