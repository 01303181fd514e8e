#include "optimal/optimum.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "optimal/best_first.h"
#include "optimal/live_memory_bound.h"
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

// The incumbent (if any) as the answer in place of an engine's result that
// has no better schedule, keeping what that engine said and measured.
OptimalResult IncumbentInstead(const std::optional<Incumbent>& incumbent, const OptimalResult& r) {
  OptimalResult u = Unproven(incumbent, r.proof);
  u.engine = r.engine;
  u.best_bound = r.best_bound;
  u.variables = r.variables;
  u.constraints = r.constraints;
  u.search_states = r.search_states;
  u.interrupted = r.interrupted;
  return u;
}

// The search, whose space is every schedule, completed without finding one
// cheaper than the incumbent: the incumbent is the optimum.
OptimalResult AtIncumbent(const Incumbent& incumbent) {
  OptimalResult r = Unproven(incumbent, "");
  r.engine = "search";
  r.status = OptimalStatus::kOptimal;
  r.proof = "search completed: nothing cheaper than the given schedule";
  r.best_bound = IntToDouble(incumbent.compute);
  return r;
}

// A schedule that fails the model's exact check (a solver's floating-point
// slip: corpus/optimal-violation/4ae0a241202cb29e, where CBC's solution broke
// a dependency row of a program with 10^18-byte sizes) is dropped with
// whatever it proved, and the proof says so. True if it was.
bool DropBrokenSchedule(const RematProblem& p, Int budget, OptimalResult* r) {
  if (!r->compute) return false;
  const std::string why = StepsViolation(p, budget, r->steps);
  if (why.empty()) return false;
  r->proof = r->engine + "'s schedule broke the model (" + why + "), dropped; " +
             (r->status == OptimalStatus::kOptimal ? "nothing proven" : r->proof);
  if (r->status == OptimalStatus::kOptimal) r->best_bound = 0;
  r->status = OptimalStatus::kNotProven;
  r->compute.reset();
  r->steps.clear();
  return true;
}

// Where the live-memory bound binds, for the proofs.
std::string LiveBoundWhere(const RematProblem& p, const LiveMemoryBound& live) {
  if (live.stage < 0) return "every node once";
  return "at the first run of " + p.nodes[live.stage].name;
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
  const LiveMemoryBound live = LiveMemoryLowerBound(p, budget);
  auto finish = [&](OptimalResult r) {
    // No schedule leaves without passing the model's exact check.
    if (DropBrokenSchedule(p, budget, &r)) r = IncumbentInstead(incumbent, r);
    // The live-memory bound holds for every schedule: a floor under the
    // engines' bound, and a schedule that reaches it is minimal.
    if (r.status == OptimalStatus::kFeasible && r.compute && *r.compute <= live.compute) {
      r.status = OptimalStatus::kOptimal;
      r.proof = "the schedule reaches the live-memory bound (" + LiveBoundWhere(p, live) + ")";
    }
    // The engines' bound is the search's, or this one handed to CBC.
    if (r.status != OptimalStatus::kOptimal && r.status != OptimalStatus::kInfeasible) {
      if (IntToDouble(live.compute) >= r.best_bound) {
        r.best_bound = IntToDouble(live.compute);
        r.bound_proof = "live memory, " + LiveBoundWhere(p, live);
      } else {
        r.bound_proof = "search";
      }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // The relaxation of the program, whose space misses schedules simrd
    // runs (recomputations out of log order), bounds only that space: it
    // is reported, never counted as a proven bound.
    if (lp) r.lp_bound = *lp;
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
  if (ConstantsExceed(p, budget)) return infeasible("constants", kConstantsExceedProof);
  if (live.infeasible) return infeasible("live memory", live.proof);
  // The LP relaxation of the program (for CBC, and reported): infeasible, it
  // says only that the program's space holds no schedule, and CBC is not run.
  bool lp_tried = false, program_empty = false;
  auto lp_bound = [&]() -> void {
    if (!lp_tried && !limits.Expired()) {
      lp_tried = true;
      const LpRelaxation relaxed = MilpLpBound(p, budget, limits);
      if (relaxed.outcome == LpRelaxation::kBound) lp = relaxed.bound;
      program_empty = relaxed.outcome == LpRelaxation::kInfeasible;
    }
  };
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
        return infeasible("search", "search of every schedule completed");
      case BestFirstResult::kAtBound: {  // nothing cheaper than the incumbent
        lp_bound();
        OptimalResult at = AtIncumbent(*incumbent);
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
  lp_bound();
  if (limits.Expired() || program_empty) {
    std::string why = program_empty ? "LP relaxation of the program infeasible (a proof for its "
                                      "log-order space only)"
                                    : StopReason(limits);
    if (!search_stop.empty()) why = "search: " + search_stop + "; " + why;
    OptimalResult r = Unproven(incumbent, why);
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
  extras.lp_bound = lp;
  std::optional<Int> floor = search_bound;
  if (live.compute > floor.value_or(0)) floor = live.compute;
  if (floor && (!lp || IntToDouble(*floor) > *lp + 0.5)) extras.known_bound = floor;
  if (incumbent) extras.cutoff = incumbent->compute;
  OptimalResult r = SolveMilp(p, budget, limits, extras);
  r.search_states = search_states;
  DropBrokenSchedule(p, budget, &r);
  // SolveMilp proves infeasibility only when the constants exceed the
  // budget (checked above); anything else it says is about its space.
  if (r.status == OptimalStatus::kInfeasible) return infeasible(r.engine, r.proof);
  if (incumbent && (!r.compute || incumbent->compute < *r.compute)) {
    // CBC found nothing cheaper in time: the incumbent is the best known.
    r = IncumbentInstead(incumbent, r);
  }
  if (search_bound) {
    r.engine = "CBC + search bound";
    // The search's bound holds for every schedule and is an integer cost:
    // a schedule reaching it is minimal.
    if (r.status == OptimalStatus::kFeasible && r.compute && *r.compute <= *search_bound) {
      r.status = OptimalStatus::kOptimal;
      r.proof = "the schedule reaches the search's bound";
    }
    if (r.status != OptimalStatus::kOptimal)
      r.best_bound = std::max(r.best_bound, IntToDouble(*search_bound));
  }
  return finish(r);
}

}  // namespace dtrcheck
