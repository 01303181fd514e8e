// The minimum-compute schedule by best-first search (A*) over (stage,
// resident units), the engine whose answers are proofs (optimal/README.md,
// "Statuses and their proofs"): the log's nodes run for the first time in
// order, and before each (and after the last, for the outputs) any node
// already run may run again, in any order and any number of times, as in
// simrd's runtimes. Its space is every schedule of the model; the integer
// program (optimal/milp_solver.h) has Checkmate's smaller one (each
// stage's recomputations once each, in log order), so its answers are not
// proofs.
//
// Why a second engine: the program's LP relaxation is weak where memory,
// not compute, is what binds (on some archived counterexamples its bound is
// the baseline compute), and CBC cannot close the gap within a minute. The
// search charges a free when it happens: its lower bound is the compute of
// the nodes still to run for the first time plus, for every unit a later
// node (or the end) needs that is not resident, one more run of its
// producer (and of the producers of that producer's missing arguments),
// since a unit that is not resident can only come back by recomputing it.
// It is admissible, so the first schedule the search completes is minimal.
//
// The search space is cut without losing the optimum by two normal forms
// of a schedule: a unit no later computation can need is freed at once,
// and any other unit is freed only right before a computation that would
// not fit otherwise, as one of an inclusion-minimal set of frees (a free
// that is not needed there can wait). See optimal/README.md.
#ifndef DTRCHECK_OPTIMAL_BEST_FIRST_H_
#define DTRCHECK_OPTIMAL_BEST_FIRST_H_

#include <atomic>
#include <cstddef>
#include <optional>
#include <vector>

#include "optimal/optimum.h"
#include "optimal/remat_problem.h"

namespace dtrcheck {

struct BestFirstOptions {
  double seconds = 60;  // of wall-clock time, then it stops
  // Polled as the time is: when set, it stops as at the time limit.
  const std::atomic<bool>* cancel = nullptr;
  // Or when its lower bound has not risen for this long: it is searching a
  // plateau of equally good partial schedules, most of which lead nowhere.
  double stall_seconds = 1e9;
  size_t max_states = 10'000'000;  // distinct states kept (about 100 bytes each), then it stops
  // A cost some schedule is known to reach (CBC's): the search then looks
  // only for cheaper ones, and running out of them proves this one minimal.
  std::optional<Int> upper_bound;
};

struct BestFirstResult {
  enum Outcome {
    kOptimal,     // `compute` and `steps`: a minimal schedule
    kAtBound,     // nothing cheaper than the upper bound: that bound is the optimum
    kInfeasible,  // no schedule fits (only without an upper bound)
    kStopped,     // the time or state limit: `lower_bound` holds
    kTooLarge,    // more units than the search's bit sets hold: not attempted
  } outcome = kStopped;
  std::optional<Int> compute;
  std::vector<NodeStep> steps;
  Int lower_bound = 0;  // every schedule costs at least this much
  size_t expanded = 0, states = 0;
  double seconds = 0;
  bool state_limit = false;  // kStopped by max_states (not by the time or the cancel flag)
};

BestFirstResult BestFirstOptimum(const RematProblem& p, Int budget,
                                 const BestFirstOptions& options = {});

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_BEST_FIRST_H_
