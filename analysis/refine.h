// Narrowing a finding down by bisection on the budget.
//
// A sweep finds a pathology between two grid points; the budgets in between
// were never run. RefineFinding bisects that interval in bytes, keeping at
// every step a pair that still witnesses the same kind of finding, until
// the two budgets are at most `tolerance` bytes apart (1: adjacent bytes).
#ifndef DTRCHECK_ANALYSIS_REFINE_H_
#define DTRCHECK_ANALYSIS_REFINE_H_

#include "analysis/pathology.h"
#include "sim/graph.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct RefineResult {
  Finding finding;      // low/high: the narrowest witnesses found (bytes budgets)
  RunRecord low, high;  // their records
  int runs = 0;         // simulations spent
  // Why bisection stopped: "converged" (within tolerance), or the run at the
  // midpoint that matched neither side, e.g. "midpoint error",
  // "midpoint thrashed between ok runs", "intermediate overhead".
  std::string stop_reason;
};

// `threshold` is the factor the finding was found with (cliff factor, or
// the overhead-rise factor; ignored for inversions). The midpoint goes to
// the side it resembles:
//   inversion:      ok -> low, oom or thrashed -> high;
//   cliff:          ok and a cliff against low -> high, against high -> low;
//   overhead rise:  ok and above threshold * low's overhead -> high,
//                   ok and high above threshold * its overhead -> low.
// Anything else stops the bisection there. Throws what Simulate throws.
RefineResult RefineFinding(const Graph& graph, const RunConfig& base, const Baseline& baseline,
                           const Finding& finding, Int tolerance, double threshold);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_REFINE_H_
