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
// Only the search's space is every schedule of the model: the program's
// is Checkmate's, smaller, so CBC contributes schedules, never proofs
// (optimal/milp_solver.h; optimal/README.md, "Statuses and their proofs").
#ifndef DTRCHECK_OPTIMAL_OPTIMUM_H_
#define DTRCHECK_OPTIMAL_OPTIMUM_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "optimal/remat_problem.h"
#include "optimal/schedule.h"

namespace dtrcheck {

enum class OptimalStatus {
  kOptimal,     // proven minimum
  kFeasible,    // a schedule, not proven minimal within the time limit
  kInfeasible,  // proven: no schedule fits the budget (OptimalResult::proof says how)
  kNotProven,   // no schedule found and infeasibility not proven in time
};
const char* OptimalStatusName(OptimalStatus s);

// Which engines SolveOptimal runs (both by default; one alone for the
// tests that compare them).
enum class OptimalEngine { kBoth, kSearch, kMilp };

// A schedule known to fit the budget, and its cost: one that fits a smaller
// budget fits any larger one (the finding's lo schedule at its hi budget),
// and a simulated run that ends ok is one (optimal/run_schedule.h).
struct Incumbent {
  Int compute = 0;
  std::vector<NodeStep> steps;
  std::string source;  // what it is, for the output ("DTR on RuntimeV2EagerOptimized")
};

// When the solve must stop: a wall-clock deadline and an interrupt flag
// (Ctrl-C), polled by every phase (building the program, the LP, both
// engines).
struct SolveLimits {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* cancel = nullptr;
  bool Cancelled() const { return cancel && cancel->load(); }
  bool Expired() const { return Cancelled() || std::chrono::steady_clock::now() >= deadline; }
  double SecondsLeft() const {  // 0 once expired; large without a deadline
    if (Cancelled()) return 0;
    if (deadline == std::chrono::steady_clock::time_point::max()) return 1e9;
    return std::max(
        0.0, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count());
  }
};

struct OptimalOptions {
  // Wall-clock seconds for the whole solve (both engines and the program's
  // construction), from SolveOptimal's start, unless `deadline` is set.
  double time_limit_seconds = 60;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  const std::atomic<bool>* cancel = nullptr;  // set: stop as at the deadline
  OptimalEngine engine = OptimalEngine::kBoth;
  // The search then looks only for cheaper schedules; if there are none,
  // this one is the optimum (and is returned as it is).
  std::optional<Incumbent> incumbent;
};

struct OptimalResult {
  OptimalStatus status = OptimalStatus::kNotProven;
  std::optional<Int> compute;  // the best schedule's total cost
  // The program's LP relaxation's optimum (0 if not solved): a bound on the
  // program's log-order space only, reported, never a proven bound.
  double lp_bound = 0;
  double best_bound = 0;  // the best lower bound proven for every schedule (the search's)
  std::vector<NodeStep> steps;
  double seconds = 0;
  size_t variables = 0, constraints = 0;  // of the program, when it was built
  std::string engine;  // what proved the result: "search", "CBC", "CBC + search bound"
  // Why the status holds: for "infeasible", the proof ("constants exceed
  // the budget", "search of every schedule completed"); for "optimal",
  // what closed the gap; otherwise
  // what stopped the solve ("time limit", "interrupted", "state limit",
  // "program too large").
  std::string proof;
  // What proves best_bound: "search", or the live-memory bound at a node's
  // first run (optimal/live_memory_bound.h); "" when it is 0.
  std::string bound_proof;
  std::string incumbent_source;  // the warm start the schedule came from, if it did
  size_t search_states = 0;      // distinct states the search kept
  bool interrupted = false;      // the cancel flag stopped it
};

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options = {});

// The steps in Graph terms, for the checker (optimal/schedule.h) and the file.
Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_OPTIMUM_H_
