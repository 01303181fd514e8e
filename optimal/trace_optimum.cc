#include "optimal/trace_optimum.h"

#include <chrono>

#include "io/record.h"

namespace dtrcheck {

std::optional<double> TraceOptimum::Overhead() const {
  if (!result.compute || baseline_compute == 0) return std::nullopt;
  return TrueDivide(*result.compute, baseline_compute);
}

double TraceOptimum::LpOverhead() const {
  if (baseline_compute == 0) return 0;
  return result.lp_bound / IntToDouble(baseline_compute);
}

Schedule ToSchedule(const RematProblem& p, const std::vector<NodeStep>& steps) {
  Schedule s;
  for (const NodeStep& n : steps) {
    if (n.compute)
      s.steps.push_back({ScheduleStep::kCompute, p.nodes[n.index].op, -1});
    else
      s.steps.push_back({ScheduleStep::kFree, -1, p.units[n.index].tensor});
  }
  return s;
}

TraceOptimum SolveTraceOptimum(const Graph& g, const RematProblem& p, Int budget,
                               Int baseline_compute, const OptimalOptions& options) {
  TraceOptimum o;
  o.budget = budget;
  o.nodes = p.nodes.size();
  o.baseline_compute = baseline_compute;
  o.result = SolveOptimal(p, budget, options);
  if (o.result.compute) {
    o.schedule = ToSchedule(p, o.result.steps);
    o.check = CheckSchedule(g, o.schedule, budget);
  } else {
    o.check.error = "no schedule";
  }
  return o;
}

Json TraceOptimumToJson(const TraceOptimum& o) {
  Json j;
  j["status"] = OptimalStatusName(o.result.status);
  j["budget"] = IntJson(o.budget);
  j["nodes"] = o.nodes;
  j["compute"] = o.result.compute ? IntJson(*o.result.compute) : Json();
  j["baseline_compute"] = IntJson(o.baseline_compute);
  j["overhead"] = o.Overhead() ? Json(*o.Overhead()) : Json();
  j["lp_bound"] = o.result.lp_bound;
  j["lp_overhead"] = o.LpOverhead();
  j["best_bound"] = o.result.best_bound;
  j["checked"] = o.result.compute ? Json(o.check.ok ? "ok" : o.check.error) : Json();
  j["recomputations"] = o.check.recomputations;
  j["variables"] = o.result.variables;
  j["constraints"] = o.result.constraints;
  j["seconds"] = o.result.seconds;
  return j;
}

Int EverythingResident(const RematProblem& p) {
  Int everything = p.fixed_at_end;
  for (const RematUnit& u : p.units) everything += u.size;
  return everything;
}

SmallestFeasible SmallestFeasibleBudget(const RematProblem& p, Int lo, Int hi,
                                        const OptimalOptions& options) {
  auto started = std::chrono::steady_clock::now();
  SmallestFeasible out;
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
  std::optional<bool> at_hi = feasible(hi);
  if (!at_hi || !*at_hi) return finish();
  std::optional<bool> at_lo = feasible(lo);
  if (!at_lo) return finish();
  if (*at_lo) {
    out.budget = lo;
    return finish();
  }
  while (hi - lo > 1) {  // lo infeasible, hi feasible
    Int mid = lo + (hi - lo) / 2;
    std::optional<bool> f = feasible(mid);
    if (!f) return finish();
    (*f ? hi : lo) = mid;
  }
  out.budget = hi;
  return finish();
}

}  // namespace dtrcheck
