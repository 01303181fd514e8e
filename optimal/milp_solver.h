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
#include <string>

#include "optimal/optimum.h"
#include "optimal/remat_problem.h"

namespace dtrcheck {

// The CBC module is missing or is not this build's (the message says where
// it was looked for and how to point at it).
class SolverModuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The two proofs SolveMilp passes on as proofs (WithinProgramSpace): neither
// depends on the program's schedule space.
inline constexpr char kConstantsExceedProof[] = "constants exceed the budget";
inline constexpr char kNothingToComputeProof[] = "nothing to compute";

// What the LP relaxation says about the program's space (not every
// schedule's): a lower bound on its cost, that it holds no schedule (the
// relaxation is infeasible), that the constants alone exceed the budget
// (a proof for every schedule), or nothing (stopped by the limits, or the program is
// too large to build).
struct LpRelaxation {
  enum Outcome { kBound, kInfeasible, kConstantsExceed, kUnknown } outcome = kUnknown;
  double bound = 0;  // kBound: the relaxation's optimum
  std::string why;   // kUnknown: "time limit", "interrupted", "program too large"
};

struct MilpExtras {
  // A cost every schedule is proven to reach (the search's bound): a row of
  // the program.
  std::optional<Int> known_bound;
  // MilpLpBound's answer for the same problem and budget, so the relaxation
  // is not solved a second time.
  std::optional<double> lp_bound;
  // A schedule's cost (the warm start): CBC then looks only for cheaper
  // schedules (its cutoff), and proving that there are none is reported
  // as kInfeasible with the proof "nothing cheaper than the cutoff".
  std::optional<Int> cutoff;
};

// The program's best schedule within `limits` (wall clock and interrupt,
// polled while the program is built and by CBC at each node). Fills in
// `status`, `compute`, `steps`, `lp_bound` (of the program alone),
// `variables`, `constraints` and `proof`. The program's space is
// Checkmate's (each stage's recomputations once each, in log order), which
// misses schedules simrd runs: kInfeasible only when the constants exceed
// the budget; CBC's completed search is kFeasible or kNotProven, its proof
// saying "in the program's log-order space"; `best_bound` is
// extras.known_bound (or 0), never CBC's or the LP's own.
OptimalResult SolveMilp(const RematProblem& p, Int budget, const SolveLimits& limits,
                        const MilpExtras& extras = {});

// The LP relaxation alone.
LpRelaxation MilpLpBound(const RematProblem& p, Int budget, const SolveLimits& limits);

// The program's size, estimated before it is built (its non-zeros grow
// with the cube of the operators); above kMaxProgramNonZeros neither
// function builds it, which keeps a solve's memory bounded.
constexpr double kMaxProgramNonZeros = 2e7;
inline double EstimatedProgramNonZeros(const RematProblem& p) {
  // The memory rows: one per (stage, node computed in it), each with a
  // term per unit kept and per unit allocated or freed in the stage so far.
  const double n = static_cast<double>(p.nodes.size()) + 1;
  return n * (n + 1) / 2 * 1.5 * static_cast<double>(p.units.size());
}

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_MILP_SOLVER_H_
