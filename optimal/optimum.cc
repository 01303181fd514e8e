#include "optimal/optimum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

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

bool ConstantsExceed(const RematProblem& p, Int budget) {
  bool exceed = budget < p.fixed_at_end;
  for (const RematNode& n : p.nodes) exceed = exceed || budget < n.resident_before;
  return exceed;
}

// What stopped a solve that proved nothing.
std::string StopReason(const SolveLimits& limits) {
  return limits.Cancelled() ? "interrupted" : "time limit";
}

// The result when no engine proved anything better: the incumbent, if any,
// as "feasible (not proven optimal)", else "not proven".
OptimalResult Unproven(const std::optional<Incumbent>& incumbent, std::string why) {
  OptimalResult r;
  r.proof = std::move(why);
  if (incumbent) {
    r.status = OptimalStatus::kFeasible;
    r.compute = incumbent->compute;
    r.steps = incumbent->steps;
    r.incumbent_source = incumbent->source;
  }
  return r;
}

// No schedule in the engines' space is cheaper than the incumbent: it is
// the optimum if it lies in that space; otherwise the space's optimum is
// no better and nothing more is known.
OptimalResult AtIncumbent(const Incumbent& incumbent, const std::string& engine) {
  OptimalResult r = Unproven(incumbent, "");
  r.engine = engine;
  if (incumbent.in_model_space) {
    r.status = OptimalStatus::kOptimal;
    r.proof = engine + " completed: nothing cheaper than the given schedule";
  } else {
    r.proof = engine +
              " completed: nothing cheaper in the model's schedule space, which the given "
              "schedule lies outside of";
  }
  r.best_bound = IntToDouble(incumbent.compute);
  return r;
}

}  // namespace

OptimalResult SolveOptimal(const RematProblem& p, Int budget, const OptimalOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  SolveLimits limits;
  limits.deadline = options.deadline
                        ? *options.deadline
                        : started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(options.time_limit_seconds));
  limits.cancel = options.cancel;
  const std::optional<Incumbent>& incumbent = options.incumbent;
  std::optional<double> lp;
  auto finish = [&](OptimalResult r) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (lp) {
      r.lp_bound = *lp;
      r.best_bound = std::max(r.best_bound, *lp);
    }
    if (r.compute && r.status == OptimalStatus::kOptimal) r.best_bound = IntToDouble(*r.compute);
    r.interrupted = r.interrupted || limits.Cancelled();
    if (incumbent && r.compute == incumbent->compute && r.steps == incumbent->steps)
      r.incumbent_source = incumbent->source;
    return r;
  };
  // An infeasibility proof that contradicts a schedule the checker passed
  // is a defect of the model: the schedule stands, and the output says so.
  auto infeasible = [&](const std::string& engine, const std::string& proof) {
    OptimalResult r;
    r.engine = engine;
    r.status = OptimalStatus::kInfeasible;
    r.proof = proof;
    if (incumbent)
      r = Unproven(incumbent, "MODEL DEFECT: " + proof + ", but the given schedule fits");
    return finish(r);
  };
  if (ConstantsExceed(p, budget)) return infeasible("constants", "constants exceed the budget");
  // Combined, the LP relaxation first: a budget it shows infeasible needs no
  // search (which would have to exhaust every partial schedule to prove it).
  bool lp_tried = false;
  auto lp_bound = [&]() {
    if (!lp_tried && !limits.Expired()) {
      lp_tried = true;
      const LpRelaxation relaxed = MilpLpBound(p, budget, limits);
      if (relaxed.outcome == LpRelaxation::kBound) lp = relaxed.bound;
      return relaxed.outcome;
    }
    return lp ? LpRelaxation::kBound : LpRelaxation::kUnknown;
  };
  if (options.engine == OptimalEngine::kBoth) {
    const LpRelaxation::Outcome relaxed = lp_bound();
    if (relaxed == LpRelaxation::kInfeasible)
      return infeasible("LP relaxation", "LP relaxation infeasible");
    if (relaxed == LpRelaxation::kConstantsExceed)
      return infeasible("constants", "constants exceed the budget");
  }
  std::optional<Int> search_bound;
  size_t search_states = 0;
  std::string search_stop;
  if (options.engine != OptimalEngine::kMilp) {
    BestFirstOptions search;
    search.seconds =
        options.engine == OptimalEngine::kSearch
            ? limits.SecondsLeft()
            : std::min(limits.SecondsLeft(), options.time_limit_seconds * kSearchShare);
    search.cancel = options.cancel;
    if (options.engine == OptimalEngine::kBoth)
      search.stall_seconds = options.time_limit_seconds * kSearchStall;
    if (incumbent) search.upper_bound = incumbent->compute;
    BestFirstResult s = BestFirstOptimum(p, budget, search);
    search_states = s.states;
    OptimalResult r;
    r.engine = "search";
    r.search_states = s.states;
    switch (s.outcome) {
      case BestFirstResult::kOptimal:
        r.status = OptimalStatus::kOptimal;
        r.proof = "best-first search completed";
        r.compute = s.compute;
        r.steps = std::move(s.steps);
        lp_bound();
        return finish(r);
      case BestFirstResult::kInfeasible:
        return infeasible("search", "exhaustive search completed");
      case BestFirstResult::kAtBound: {  // nothing cheaper than the incumbent
        lp_bound();
        OptimalResult at = AtIncumbent(*incumbent, "search");
        at.search_states = s.states;
        return finish(at);
      }
      case BestFirstResult::kStopped:
        search_bound = s.lower_bound;
        search_stop = s.state_limit ? "state limit" : StopReason(limits);
        break;
      case BestFirstResult::kTooLarge:
        search_stop = "too many units for the search";
        break;
    }
    if (options.engine == OptimalEngine::kSearch) {
      lp_bound();
      r = Unproven(incumbent, search_stop);
      r.engine = "search";
      r.search_states = s.states;
      r.best_bound = IntToDouble(s.lower_bound);
      return finish(r);
    }
  }
  if (limits.Expired()) {
    OptimalResult r = Unproven(incumbent, StopReason(limits));
    r.engine = "search";
    r.search_states = search_states;
    if (search_bound) r.best_bound = IntToDouble(*search_bound);
    return finish(r);
  }
  // The search's bound as a row only when it says more than the LP: the row
  // then moves the relaxation, and otherwise it only slows CBC's
  // heuristics down (corpus/inversion/917b8e91e0676bec: no schedule in 40 s
  // with the row, optimal in 23 s without).
  MilpExtras extras;
  lp_bound();
  extras.lp_bound = lp;
  if (search_bound && (!lp || IntToDouble(*search_bound) > *lp + 0.5))
    extras.known_bound = search_bound;
  if (incumbent) extras.cutoff = incumbent->compute;
  OptimalResult r = SolveMilp(p, budget, limits, extras);
  r.search_states = search_states;
  if (r.status == OptimalStatus::kInfeasible && incumbent && extras.cutoff) {
    // CBC proved nothing is cheaper than the incumbent (its cutoff).
    OptimalResult at = AtIncumbent(*incumbent, "CBC");
    at.search_states = search_states;
    return finish(at);
  }
  if (r.status == OptimalStatus::kInfeasible) return infeasible(r.engine, r.proof);
  if (incumbent && (!r.compute || incumbent->compute < *r.compute)) {
    // CBC found nothing cheaper in time: the incumbent is the best known.
    OptimalResult u = Unproven(incumbent, r.proof);
    u.engine = r.engine;
    u.best_bound = r.best_bound;
    u.variables = r.variables;
    u.constraints = r.constraints;
    u.search_states = search_states;
    u.interrupted = r.interrupted;
    r = u;
  }
  if (r.status == OptimalStatus::kOptimal && incumbent && !incumbent->in_model_space && r.compute &&
      *r.compute > incumbent->compute) {
    r = Unproven(incumbent, "the model's optimum costs more than the given schedule");
  }
  if (search_bound) {
    r.engine = "CBC + search bound";
    // The search's bound is exact (an integer cost): a schedule reaching it
    // is minimal (in the model's space: an incumbent outside it is not
    // proven by a bound on that space).
    const bool is_incumbent = incumbent && r.steps == incumbent->steps;
    const bool bound_applies = !is_incumbent || incumbent->in_model_space;
    if (r.status == OptimalStatus::kFeasible && r.compute && *r.compute <= *search_bound &&
        bound_applies) {
      r.status = OptimalStatus::kOptimal;
      r.proof = "the schedule reaches the search's bound";
    }
    if (r.status != OptimalStatus::kOptimal)
      r.best_bound = std::max(r.best_bound, IntToDouble(*search_bound));
  }
  return finish(r);
}

}  // namespace dtrcheck
