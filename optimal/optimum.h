// The minimum-compute rematerialization schedule of a RematProblem under a
// memory budget: the one entry point (`dtrcheck optimal`, check-finding
// --optimal, the smallest budget, the tests), which runs the two exact
// engines and combines what they prove:
//  * the best-first search (optimal/best_first.h) first: on the archived
//    counterexamples it proves most optima in well under a second,
//    including those where the program's LP bound is too weak for CBC;
//  * when it stops without an answer (its time share or its state limit),
//    the integer program (optimal/milp_solver.h, CBC) with the rest of the
//    time, its schedule proven minimal if it reaches the search's bound.
// Both engines optimise over the same schedules (optimal/README.md), and
// the tests check that they agree.
#ifndef DTRCHECK_OPTIMAL_OPTIMUM_H_
#define DTRCHECK_OPTIMAL_OPTIMUM_H_

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

// Which engines SolveOptimal runs (both by default; one alone for the
// tests that compare them).
enum class OptimalEngine { kBoth, kSearch, kMilp };

// A schedule in problem terms: compute node `index`, or free unit `index`.
struct NodeStep {
  int index = 0;
  bool compute = true;
};

// A schedule known to fit the budget, and its cost: one that fits a smaller
// budget fits any larger one (the finding's lo schedule at its hi budget).
struct Incumbent {
  Int compute = 0;
  std::vector<NodeStep> steps;
};

struct OptimalOptions {
  double time_limit_seconds = 60;  // CPU seconds for both engines together
  OptimalEngine engine = OptimalEngine::kBoth;
  // The search then looks only for cheaper schedules; if there are none,
  // this one is the optimum (and is returned as it is).
  std::optional<Incumbent> incumbent;
};

struct OptimalResult {
  OptimalStatus status = OptimalStatus::kNotProven;
  std::optional<Int> compute;  // the best schedule's total cost
  double lp_bound = 0;         // the LP relaxation's optimum: a lower bound (0 if not solved)
  double best_bound = 0;       // the best lower bound proven (>= lp_bound)
  std::vector<NodeStep> steps;
  double seconds = 0;
  size_t variables = 0, constraints = 0;  // of the program, when it was built
  std::string engine;        // what proved the result: "search", "CBC", "CBC + search bound"
  size_t search_states = 0;  // distinct states the search kept
};

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options = {});

// The steps in Graph terms, for the checker (optimal/schedule.h) and the file.
Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_OPTIMUM_H_
