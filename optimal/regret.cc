#include "optimal/regret.h"

#include <cmath>
#include <sstream>

#include "analysis/format.h"

namespace dtrcheck {

Regret RegretAt(const Graph& g, const RematProblem& p, const RunConfig& config,
                const Baseline& baseline, Int budget, const OptimalOptions& options) {
  Regret r;
  r.budget = budget;
  r.optimum = SolveOptimal(p, budget, options);
  r.schedule = ToSchedule(p, r.optimum.steps);
  if (r.optimum.compute) {
    r.check = CheckSchedule(g, r.schedule, budget);
    if (baseline.compute > 0) r.optimum_overhead = TrueDivide(*r.optimum.compute, baseline.compute);
  }
  RunConfig c = config;
  c.ratio.reset();
  c.budget = budget;
  r.heuristic = Simulate(g, c, baseline);
  if (r.heuristic.status == Status::kOk && r.optimum.status == OptimalStatus::kOptimal &&
      r.optimum_overhead)
    r.regret = r.heuristic.Overhead() - *r.optimum_overhead;
  return r;
}

Json RegretToJson(const Regret& r) {
  Json j;
  j["budget"] = Json(r.budget);
  j["status"] = OptimalStatusName(r.optimum.status);
  if (r.optimum.compute) j["compute"] = Json(*r.optimum.compute);
  if (r.optimum_overhead) j["overhead"] = *r.optimum_overhead;
  j["lp_bound"] = r.optimum.lp_bound;
  j["best_bound"] = r.optimum.best_bound;
  if (!r.optimum.engine.empty()) j["engine"] = r.optimum.engine;
  j["seconds"] = std::round(r.optimum.seconds * 1000) / 1000;
  if (r.optimum.compute)
    j["schedule_check"] = r.check.ok ? Json("ok") : Json("FAILED: " + r.check.error);
  j["heuristic"] = {{"name", r.heuristic.config.heuristic},
                    {"runtime", r.heuristic.config.runtime},
                    {"status", StatusName(r.heuristic.status)},
                    {"overhead", r.heuristic.Overhead()}};
  if (r.regret) j["regret"] = *r.regret;
  return j;
}

std::string DescribeOptimum(const Regret& r) {
  std::ostringstream s;
  switch (r.optimum.status) {
    case OptimalStatus::kOptimal:
      s << "optimal";
      break;
    case OptimalStatus::kFeasible:
      s << "feasible";
      break;
    case OptimalStatus::kInfeasible:
      return "infeasible";
    case OptimalStatus::kNotProven:
      return "not proven (no schedule in the time limit)";
  }
  if (r.optimum_overhead) s << " " << Fixed(*r.optimum_overhead, 3) << "x";
  if (r.optimum.status == OptimalStatus::kFeasible) s << " (not proven optimal)";
  return s.str();
}

Json FindingOptimum(const Graph& g, const PropertySpec& spec, const OptimalOptions& options) {
  const Baseline baseline = RunBaseline(g, spec.config.baseline_runtime);
  const RematProblem p = MakeRematProblem(g);
  Json out = Json::object();
  std::vector<Regret> at;
  if (spec.lo)
    at.push_back(RegretAt(g, p, spec.config, baseline, spec.lo->Resolve(baseline), options));
  // A schedule that fits lo fits hi (when lo is the smaller): the search at
  // hi then only looks for a cheaper one, and CBC's answer is kept only if
  // it is better.
  OptimalOptions at_hi = options;
  const Int hi_budget = spec.hi.Resolve(baseline);
  if (!at.empty() && at.front().optimum.compute && at.front().check.ok &&
      at.front().budget <= hi_budget)
    at_hi.incumbent = Incumbent{*at.front().optimum.compute, at.front().optimum.steps};
  at.push_back(RegretAt(g, p, spec.config, baseline, hi_budget, at_hi));
  if (spec.lo) out["lo"] = RegretToJson(at.front());
  out["hi"] = RegretToJson(at.back());
  const Regret& hi = at.back();
  const bool failing_end =
      spec.property == TraceProperty::kInversion || spec.property == TraceProperty::kPinnedOom;
  const bool proven_schedule = hi.optimum.status == OptimalStatus::kOptimal ||
                               (hi.optimum.status == OptimalStatus::kFeasible && hi.check.ok);
  out["proven_defect"] = failing_end && hi.heuristic.status != Status::kOk && proven_schedule;
  std::ostringstream verdict;
  for (size_t i = 0; i < at.size(); ++i) {
    const Regret& r = at[i];
    if (i) verdict << "; ";
    verdict << (at.size() == 2 && i == 0 ? "lo: " : "hi: ") << "optimum " << DescribeOptimum(r)
            << ", " << r.heuristic.config.heuristic << " " << StatusName(r.heuristic.status);
    if (r.heuristic.status == Status::kOk)
      verdict << " " << Fixed(r.heuristic.Overhead(), 3) << "x";
    if (r.regret) verdict << " (regret " << Fixed(*r.regret, 3) << "x)";
  }
  if (out["proven_defect"].get<bool>())
    verdict << ": a proven heuristic defect (a schedule fits the budget the heuristic fails at)";
  out["verdict"] = verdict.str();
  return out;
}

}  // namespace dtrcheck
