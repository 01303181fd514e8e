#include "optimal/optimum.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "optimal/best_first.h"
#include "optimal/milp_solver.h"

namespace dtrcheck {

const char* OptimalStatusName(OptimalStatus s) {
  switch (s) {
    case OptimalStatus::kOptimal:
      return "optimal";
    case OptimalStatus::kFeasible:
      return "feasible (not proven optimal)";
    case OptimalStatus::kInfeasible:
      return "infeasible";
    case OptimalStatus::kNotProven:
      return "not proven";
  }
  return "?";
}

Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps) {
  Schedule s;
  for (const NodeStep& n : steps)
    s.steps.push_back(n.compute ? ScheduleStep{ScheduleStep::kCompute, p.nodes[n.index].op}
                                : ScheduleStep{ScheduleStep::kFree, p.units[n.index].tensor});
  return s;
}

namespace {

// The search's share of the time limit when CBC follows it. The search
// either proves an optimum quickly or, as its open list grows with the
// slack between its bound and the optimum, not at all; the rest of the
// time is CBC's. It also hands over once its bound has stalled for a
// tenth of the limit: it is then exploring a plateau of partial schedules
// as good as its bound says, most of them dead ends, where CBC, given the
// bound as a row, tends to find a schedule that reaches it.
constexpr double kSearchShare = 0.25;
constexpr double kSearchStall = 0.1;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const double cpu_started = CpuSeconds();
  auto finish = [&](OptimalResult r) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  };
  std::optional<Int> search_bound;
  size_t search_states = 0;
  // Combined, the LP relaxation first: a budget it shows infeasible needs no
  // search (which would have to exhaust every partial schedule to prove it).
  std::optional<double> lp;
  if (options.engine == OptimalEngine::kBoth) {
    lp = MilpLpBound(p, budget);
    if (!lp) {
      OptimalResult r;
      r.engine = "LP relaxation";
      r.status = OptimalStatus::kInfeasible;
      return finish(r);
    }
  }
  auto lp_bound = [&]() {
    if (!lp) lp = MilpLpBound(p, budget);
    return lp.value_or(0);
  };
  if (options.engine != OptimalEngine::kMilp) {
    BestFirstOptions search;
    search.cpu_seconds = options.engine == OptimalEngine::kSearch
                             ? options.time_limit_seconds
                             : options.time_limit_seconds * kSearchShare;
    if (options.engine == OptimalEngine::kBoth)
      search.stall_seconds = options.time_limit_seconds * kSearchStall;
    if (options.incumbent) search.upper_bound = options.incumbent->compute;
    BestFirstResult s = BestFirstOptimum(p, budget, search);
    search_states = s.states;
    OptimalResult r;
    r.engine = "search";
    r.search_states = s.states;
    switch (s.outcome) {
      case BestFirstResult::kOptimal:
        r.status = OptimalStatus::kOptimal;
        r.compute = s.compute;
        r.steps = std::move(s.steps);
        r.lp_bound = lp_bound();
        r.best_bound = IntToDouble(*s.compute);
        return finish(r);
      case BestFirstResult::kInfeasible:
        r.status = OptimalStatus::kInfeasible;
        return finish(r);
      case BestFirstResult::kAtBound:  // nothing cheaper than the incumbent
        r.status = OptimalStatus::kOptimal;
        r.engine = "search (at the given schedule's cost)";
        r.compute = options.incumbent->compute;
        r.steps = options.incumbent->steps;
        r.lp_bound = lp_bound();
        r.best_bound = IntToDouble(*r.compute);
        return finish(r);
      case BestFirstResult::kStopped:
        search_bound = s.lower_bound;
        break;
      case BestFirstResult::kTooLarge:
        break;
    }
    if (options.engine == OptimalEngine::kSearch) {
      r.status = OptimalStatus::kNotProven;
      r.lp_bound = lp_bound();
      r.best_bound = std::max(r.lp_bound, IntToDouble(s.lower_bound));
      return finish(r);
    }
  }
  const double left = std::max(0.01, options.time_limit_seconds - (CpuSeconds() - cpu_started));
  // The search's bound as a row only when it says more than the LP: the row
  // then moves the relaxation, and otherwise it only slows CBC's
  // heuristics down (corpus/inversion/917b8e91e0676bec: no schedule in 40 s
  // with the row, optimal in 23 s without).
  std::optional<Int> row;
  if (search_bound && IntToDouble(*search_bound) > lp_bound() + 0.5) row = search_bound;
  OptimalResult r = SolveMilp(p, budget, left, row, lp);
  r.search_states = search_states;
  if (options.incumbent && (!r.compute || options.incumbent->compute < *r.compute) &&
      r.status != OptimalStatus::kOptimal) {
    r.status = OptimalStatus::kFeasible;
    r.compute = options.incumbent->compute;
    r.steps = options.incumbent->steps;
  }
  if (search_bound) {
    r.engine = "CBC + search bound";
    // The search's bound is exact (an integer cost): a schedule reaching it is minimal.
    if (r.status == OptimalStatus::kFeasible && r.compute && *r.compute <= *search_bound)
      r.status = OptimalStatus::kOptimal;
    if (r.status == OptimalStatus::kOptimal)
      r.best_bound = IntToDouble(*r.compute);
    else
      r.best_bound = std::max(r.best_bound, IntToDouble(*search_bound));
  }
  return finish(r);
}

}  // namespace dtrcheck
