// A lower bound on every schedule's cost from memory alone, cheap enough
// for the real models (thousands of operators), where neither exact engine
// runs: the best-first search holds at most 256 units, and CBC's program
// grows with the cube of the operators.
//
// At node t's first run its arguments and results are resident beside the
// constants. Every other unit made before t and needed after it (by a later
// node, or as an output at the end) is either resident too or, dropped,
// brought back by running its producer again after t. So the units dropped
// at t hold at least E(t) = constants + arguments + results + those units -
// budget bytes, and their producers each run once more. Charging a unit u
// of producer k the share cost(k) * size(u) / size(k's units) of k's run
// (a producer's units together cost at most one run), the cheapest drop is
// at least the fractional knapsack over those units, filled in order of
// cost per byte. The bound is the baseline (every node runs once) plus the
// largest such knapsack over the stages; recomputations counted at
// different stages may be one run, so they are not added up.
//
// Where E(t) exceeds every unit that may be dropped (t's arguments and
// results with the constants alone over the budget), no schedule fits: a
// proof of infeasibility for every schedule.
#ifndef DTRCHECK_OPTIMAL_LIVE_MEMORY_BOUND_H_
#define DTRCHECK_OPTIMAL_LIVE_MEMORY_BOUND_H_

#include <string>

#include "optimal/remat_problem.h"

namespace dtrcheck {

struct LiveMemoryBound {
  Int compute = 0;  // every schedule costs at least this much
  int stage = -1;   // the node whose first run gives it (-1: the baseline alone)
  bool infeasible = false;
  std::string proof;  // infeasible: which node's first run cannot fit
};

// Exact integer arithmetic; the baseline alone where costs or sizes reach
// 2^62 (the products would not fit).
LiveMemoryBound LiveMemoryLowerBound(const RematProblem& p, Int budget);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_LIVE_MEMORY_BOUND_H_
