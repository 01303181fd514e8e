// The minimum-compute rematerialization schedule of a RematProblem under a
// memory budget, as a mixed-integer program solved by CBC (COIN-OR).
//
// The formulation is Checkmate's (Jain et al., MLSys 2020, section 4): the
// log's operators are stages; in stage t node t is computed, after any
// earlier nodes recomputed for it, in log order. Unlike Checkmate, what is
// kept and freed is a unit (one storage, or a view), not a whole node, so
// that an operator's outputs are freed one by one as in simrd; a node
// recomputed while some of its units are resident allocates only the
// others. The program is written out in cbc_milp.cc and README.md.
//
// CBC is loaded the first time either function runs, from the module
// dtrcheck_cbc.so (optimal/cbc_module.h); SolverModuleError when it cannot be.
#ifndef DTRCHECK_OPTIMAL_MILP_SOLVER_H_
#define DTRCHECK_OPTIMAL_MILP_SOLVER_H_

#include <optional>
#include <stdexcept>

#include "optimal/optimum.h"
#include "optimal/remat_problem.h"

namespace dtrcheck {

// The CBC module is missing or is not this build's (the message says where
// it was looked for and how to point at it).
class SolverModuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The program's optimum within `time_limit_seconds` (CBC's limit, CPU
// seconds). Fills in `status`, `compute`, `steps`, `lp_bound` (of the
// program alone), `best_bound` (CBC's, at least the LP's), `variables` and
// `constraints`. `known_bound`, a cost every schedule is proven to reach
// (the search's bound), becomes a row of the program. `lp_bound`, when
// given, is MilpLpBound's answer for the same problem and budget, so the
// relaxation is not solved a second time.
OptimalResult SolveMilp(const RematProblem& p, Int budget, double time_limit_seconds,
                        std::optional<Int> known_bound = std::nullopt,
                        std::optional<double> lp_bound = std::nullopt);

// The LP relaxation's optimum alone (a lower bound on the cost), or nullopt
// when even the relaxation is infeasible.
std::optional<double> MilpLpBound(const RematProblem& p, Int budget);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_MILP_SOLVER_H_
