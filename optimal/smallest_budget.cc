#include "optimal/smallest_budget.h"

#include <chrono>

namespace dtrcheck {

SmallestBudget SmallestFeasibleBudget(const RematProblem& p, Int hi,
                                      const OptimalOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  SmallestBudget out;
  // Feasible, infeasible, or nullopt when the solver proved neither in time.
  auto feasible = [&](Int b) -> std::optional<bool> {
    ++out.solves;
    OptimalStatus s = SolveOptimal(p, b, options).status;
    if (s == OptimalStatus::kNotProven) return std::nullopt;
    return s != OptimalStatus::kInfeasible;
  };
  auto finish = [&]() {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
  };
  Int lo = p.fixed_at_end;
  std::optional<bool> at_hi = feasible(hi);
  if (!at_hi || !*at_hi) return finish();
  if (lo >= hi) {
    out.budget = hi;
    return finish();
  }
  std::optional<bool> at_lo = feasible(lo);
  if (!at_lo) return finish();
  if (*at_lo) {
    out.budget = lo;
    return finish();
  }
  while (hi - lo > 1) {  // lo infeasible, hi feasible
    const Int mid = lo + (hi - lo) / 2;
    std::optional<bool> f = feasible(mid);
    if (!f) return finish();
    (*f ? hi : lo) = mid;
  }
  out.budget = hi;
  return finish();
}

}  // namespace dtrcheck
