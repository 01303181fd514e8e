#include "optimal/smallest_budget.h"

#include <chrono>

namespace dtrcheck {

SmallestBudget SmallestFeasibleBudget(const RematProblem& p, Int hi, const OptimalOptions& options,
                                      const BisectionHooks& hooks) {
  const auto started = std::chrono::steady_clock::now();
  SmallestBudget out;
  out.infeasible = p.fixed_at_end - 1;
  // Feasible, infeasible, or nullopt when the solver proved neither in time
  // (or the bisection was cancelled before it).
  auto feasible = [&](Int b) -> std::optional<bool> {
    if (hooks.cancel && hooks.cancel->load()) {
      out.cancelled = true;
      return std::nullopt;
    }
    ++out.solves;
    OptimalStatus s = SolveOptimal(p, b, options).status;
    if (s == OptimalStatus::kNotProven) return std::nullopt;
    const bool fits = s != OptimalStatus::kInfeasible;
    if (fits && (!out.feasible || b < *out.feasible)) out.feasible = b;
    if (!fits && b > out.infeasible) out.infeasible = b;
    if (hooks.on_step) hooks.on_step(out);
    return fits;
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
