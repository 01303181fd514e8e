// The smallest budget at which a trace can run at all: the optimum's
// feasibility is monotone in the budget (a schedule that fits B fits any
// larger budget), so bisection to the byte finds it exactly, each step one
// solve (optimal/milp_solver.h).
#ifndef DTRCHECK_OPTIMAL_SMALLEST_BUDGET_H_
#define DTRCHECK_OPTIMAL_SMALLEST_BUDGET_H_

#include <atomic>
#include <functional>
#include <optional>

#include "optimal/optimum.h"
#include "optimal/remat_problem.h"

namespace dtrcheck {

struct SmallestBudget {
  std::optional<Int> budget;  // none: `hi` infeasible, or a solve neither proven way in time
  int solves = 0;
  double seconds = 0;
  // The bracket so far: infeasible at `infeasible` (or nothing is known
  // below the constants), feasible at `feasible`. When the bisection ends
  // early (cancelled, or a solve not proven), the answer lies in
  // (infeasible, feasible].
  Int infeasible = 0;
  std::optional<Int> feasible;
  bool cancelled = false;
};

struct BisectionHooks {
  // Polled between solves: when it is set, the bisection stops with its bracket.
  const std::atomic<bool>* cancel = nullptr;
  // After each solve: the bracket so far.
  std::function<void(const SmallestBudget&)> on_step;
};

// Bisects between the constants alone (no schedule fits below them) and
// `hi`, which should be feasible (every unit resident at once always is).
SmallestBudget SmallestFeasibleBudget(const RematProblem& p, Int hi,
                                      const OptimalOptions& options = {},
                                      const BisectionHooks& hooks = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_SMALLEST_BUDGET_H_
