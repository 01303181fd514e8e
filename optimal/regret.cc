#include "optimal/regret.h"

#include <chrono>
#include <cmath>
#include <sstream>

#include "analysis/format.h"
#include "sim/placed_memory.h"

namespace dtrcheck {

std::vector<RunConfig> DefaultWarmStarts(const RunConfig& config) {
  RunConfig dtr = config;
  dtr.runtime = "RuntimeV2EagerOptimized";
  dtr.heuristic = "DTR";
  // The optimum has no overhead limit; neither has the run that bounds it.
  dtr.overhead_limit.reset();
  dtr.remat_limit.reset();
  dtr.remat_limit_float.reset();
  dtr.perturb_eviction = -1;
  return {dtr};
}

Regret RegretAt(const Graph& g, const RematProblem& p, const RunConfig& config,
                const Baseline& baseline, Int budget, const OptimalOptions& options,
                const std::vector<RunConfig>& warm_starts) {
  Regret r;
  r.budget = budget;
  // A run without a limit may never end: AbLocal on RuntimeV2* at lstm_lm
  // 0.5 evicts and recomputes in a cycle (it thrashes at any limit), and
  // its recorded schedule grew past 15 GB. A run above the cap bounds
  // nothing useful, so each run without a limit of its own gets this one.
  auto capped = [](RunConfig c) {
    if (!c.overhead_limit && !c.remat_limit && !c.remat_limit_float)
      c.overhead_limit = kWarmStartOverheadCap;
    return c;
  };
  r.warm.push_back(ScheduleOfRun(g, p, capped(config), baseline, budget));
  r.heuristic = r.warm.front().record;
  // The other runs bound the optimum only if cheaper than the best so far:
  // each is cut there (an overhead limit only ends a run, it changes no
  // eviction), which keeps thrashing runs of large traces short, and none
  // starts after the deadline or an interrupt.
  auto expired = [&] {
    return (options.cancel && options.cancel->load()) ||
           (options.deadline && std::chrono::steady_clock::now() >= *options.deadline);
  };
  for (RunConfig w : warm_starts.empty() ? DefaultWarmStarts(config) : warm_starts) {
    if (w.runtime == config.runtime && w.heuristic == config.heuristic) continue;
    w = capped(w);
    if (expired()) {
      ++r.warm_skipped;
      continue;
    }
    if (std::optional<Incumbent> best = CheapestIncumbent(r.warm); best && baseline.compute > 0) {
      const double cut = TrueDivide(best->compute, baseline.compute) + 1e-9;
      if (!w.overhead_limit || *w.overhead_limit > cut) w.overhead_limit = cut;
    }
    r.warm.push_back(ScheduleOfRun(g, p, w, baseline, budget));
  }
  for (const RunAsSchedule& w : r.warm)
    if (!w.gap.empty()) r.model_gaps.push_back(w.gap);
  OptimalOptions o = options;
  if (std::optional<Incumbent> best = CheapestIncumbent(r.warm);
      best && (!o.incumbent || best->compute < o.incumbent->compute))
    o.incumbent = std::move(best);
  r.optimum = SolveOptimal(p, budget, o);
  r.schedule = ToSchedule(p, r.optimum.steps);
  if (r.optimum.compute) {
    r.check = CheckSchedule(g, r.schedule, budget);
    if (baseline.compute > 0) r.optimum_overhead = TrueDivide(*r.optimum.compute, baseline.compute);
  }
  if (r.heuristic.status == Status::kOk && r.optimum.status == OptimalStatus::kOptimal &&
      r.optimum_overhead && RuntimeWithinModel(config.runtime) && r.model_gaps.empty())
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
  if (!r.optimum.bound_proof.empty()) j["bound_proof"] = r.optimum.bound_proof;
  if (!r.optimum.engine.empty()) j["engine"] = r.optimum.engine;
  if (!r.optimum.proof.empty()) j["proof"] = r.optimum.proof;
  if (!r.optimum.incumbent_source.empty()) j["warm_start"] = r.optimum.incumbent_source;
  size_t ok = 0;
  for (const RunAsSchedule& w : r.warm) ok += w.incumbent.has_value();
  j["warm_starts"] = {{"run", r.warm.size()}, {"checked_ok", ok}, {"skipped", r.warm_skipped}};
  if (r.optimum.interrupted) j["interrupted"] = true;
  if (!r.model_gaps.empty()) j["model_gaps"] = r.model_gaps;
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
      return "infeasible (" + r.optimum.proof + ")";
    case OptimalStatus::kNotProven:
      return "not proven (no schedule: " + r.optimum.proof + ")";
  }
  if (r.optimum_overhead) s << " " << Fixed(*r.optimum_overhead, 3) << "x";
  if (r.optimum.status == OptimalStatus::kFeasible)
    s << " (not proven optimal: " << r.optimum.proof << ")";
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
      at.front().budget <= hi_budget) {
    const OptimalResult& lo = at.front().optimum;
    at_hi.incumbent = Incumbent{*lo.compute, lo.steps, "the schedule at lo"};
  }
  at.push_back(RegretAt(g, p, spec.config, baseline, hi_budget, at_hi));
  if (spec.lo) out["lo"] = RegretToJson(at.front());
  out["hi"] = RegretToJson(at.back());
  const Regret& hi = at.back();
  const bool failing_end =
      spec.property == TraceProperty::kInversion || spec.property == TraceProperty::kPinnedOom;
  // A schedule fits only if the independent checker passed it.
  const bool proven_schedule = hi.optimum.compute && hi.check.ok;
  // The claim needs the model to relax the runtime (its schedules are ones
  // the runtime could have run): withheld where it is known not to.
  std::vector<std::string> gaps;
  for (const Regret& r : at) gaps.insert(gaps.end(), r.model_gaps.begin(), r.model_gaps.end());
  std::string withheld;
  if (!RuntimeWithinModel(spec.config.runtime))
    withheld = spec.config.runtime +
               " is outside the model: its banishing frees released constants, which the model "
               "keeps resident (optimal/README.md)";
  else if (!gaps.empty())
    withheld = "an ok run's schedule is not the model's: " + gaps.front();
  // The model sums bytes. Bytes are a relaxation of an allocator (what is
  // allocated never exceeds what the device holds), so its optimum still
  // bounds the runs below; but its schedule is not placed, and a schedule
  // that fits in bytes may not fit the allocator's blocks: no defect is
  // proven under an allocator.
  else if (spec.config.memory.model != MemoryModel::kBytes)
    withheld = "the run is under --memory " + MemoryModelName(spec.config.memory.model) +
               ": the optimum's model sums bytes, and its schedule is not placed by the "
               "allocator (it bounds the runs below, it proves no defect)";
  if (!withheld.empty()) out["withheld"] = withheld;
  out["proven_defect"] =
      failing_end && hi.heuristic.status != Status::kOk && proven_schedule && withheld.empty();
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
  if (!withheld.empty()) verdict << "; claims withheld: " << withheld;
  if (out["proven_defect"].get<bool>())
    verdict << ": a proven heuristic defect (a schedule fits the budget the heuristic fails at)";
  out["verdict"] = verdict.str();
  return out;
}

}  // namespace dtrcheck
