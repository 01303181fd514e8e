// dtrcheck optimal: the minimum-compute schedule of a trace under a budget
// (optimal/), checked by the independent schedule checker, beside the
// heuristic's own run at the same budget.
#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analysis/format.h"
#include "analysis/sweep.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/number_option.h"
#include "cli/progress.h"
#include "cli/simulation_options.h"
#include "io/atomic_file.h"
#include "optimal/regret.h"
#include "optimal/smallest_budget.h"
#include "sim/accepted_pairs.h"
#include "sim/parse.h"

namespace dtrcheck {

namespace {

// --warm-start: "all" (every accepted pair), or a comma-separated list of
// HEURISTIC (on RuntimeV2EagerOptimized) or HEURISTIC/RUNTIME; each with the
// command's budget and baseline, without its overhead limit.
std::vector<RunConfig> WarmStartConfigs(const std::string& text, const RunConfig& config) {
  std::vector<RunConfig> out = DefaultWarmStarts(config);
  if (text.empty()) return out;
  const RunConfig base = out.front();
  auto add = [&](const std::string& heuristic, const std::string& runtime) {
    RunConfig c = base;
    c.heuristic = heuristic;
    c.runtime = runtime;
    out.push_back(c);
  };
  if (text == "all") {
    for (const RuntimeHeuristic& pair : AcceptedPairs()) add(pair.heuristic, pair.runtime);
    return out;
  }
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const size_t slash = item.find('/');
    const std::string heuristic = item.substr(0, slash);
    const std::string runtime =
        slash == std::string::npos ? "RuntimeV2EagerOptimized" : item.substr(slash + 1);
    if (heuristic.empty() || runtime.empty())
      throw CLI::ValidationError("--warm-start",
                                 "expected HEURISTIC or HEURISTIC/RUNTIME, got \"" + item + "\"");
    add(heuristic, runtime);
  }
  return out;
}

struct OptimalCommandOptions {
  SimulationOptions sim;
  bool json = false;
  double time_limit = 60;
  std::string schedule_path;
  std::string engine = "both";
  std::string warm_start;
  bool smallest = false;
};

CLI::App* RegisterOptimal(CLI::App& app, OptimalCommandOptions* o) {
  auto* cmd = app.add_subcommand(
      "optimal",
      "the minimum total compute of running the trace under a budget, with any results freed "
      "and recomputed (an exact integer program, CBC), beside the heuristic's run");
  AddSimulationOptions(cmd, &o->sim);
  cmd->add_option("--time-limit", o->time_limit,
                  "wall-clock seconds for the whole command (with --smallest-budget: for each "
                  "solve); then the best schedule so far is reported as not proven optimal")
      ->capture_default_str()
      ->check(FiniteRange(0.01, 1e6));
  cmd->add_option("--engine", o->engine,
                  "both: the best-first search, then CBC with the rest of the time if the "
                  "search has not answered; search or milp: that engine alone (optimal/README.md)")
      ->check(CLI::IsMember({"both", "search", "milp"}))
      ->capture_default_str();
  cmd->add_option("--schedule", o->schedule_path,
                  "write the optimal schedule here (compute/free steps, one a line)");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--warm-start", o->warm_start,
                  "more runs whose schedules bound the optimum from above (besides DTR and the "
                  "--heuristic's own): HEURISTIC or HEURISTIC/RUNTIME, comma-separated, or all "
                  "(every accepted pair)");
  cmd->add_flag("--smallest-budget", o->smallest,
                "also find the smallest budget at which any schedule fits, by bisection to the "
                "byte up to this budget (or up to every storage resident at once if it is "
                "infeasible); each step is one solve");
  return cmd;
}

int RunOptimalCommand(const OptimalCommandOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  SimulationOptions sim = o.sim;
  FinishSimulationOptions(&sim);
  if (!o.schedule_path.empty()) RefuseSameFile(sim.trace, "trace", o.schedule_path, "--schedule");
  // Ctrl-C stops the solve; what is known so far is printed (exit 130).
  InterruptGuard guard;
  Graph graph = ParseTraceFile(sim.trace, sim.parse);
  Baseline baseline = RunBaseline(graph, sim.config.baseline_runtime);
  const Int budget = sim.config.budget ? *sim.config.budget
                                       : BudgetSpec::Ratio(*sim.config.ratio).Resolve(baseline);
  RematProblem problem = MakeRematProblem(graph);
  OptimalOptions options;
  options.time_limit_seconds = o.time_limit;
  options.cancel = guard.flag();
  // The whole command within the limit: the solve ends a little before
  // it, leaving time for the checks and the output.
  if (!o.smallest)
    options.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(o.time_limit * 0.95));
  options.engine = o.engine == "search" ? OptimalEngine::kSearch
                   : o.engine == "milp" ? OptimalEngine::kMilp
                                        : OptimalEngine::kBoth;
  Regret r = RegretAt(graph, problem, sim.config, baseline, budget, options,
                      WarmStartConfigs(o.warm_start, sim.config));
  if (!o.schedule_path.empty() && r.optimum.compute)
    WriteFileAtomically(o.schedule_path,  // never over the trace (checked above)
                        ScheduleText(graph, r.schedule,
                                     "dtrcheck optimal schedule of " + sim.trace + "\nbudget " +
                                         IntToString(budget) + " bytes, total compute " +
                                         IntToString(*r.optimum.compute) + ", " +
                                         OptimalStatusName(r.optimum.status)));
  const bool checked = !r.optimum.compute || r.check.ok;
  std::optional<SmallestBudget> least;
  if (o.smallest) {
    Int everything = problem.fixed_at_end;
    for (const RematUnit& u : problem.units) everything += u.size;
    const Int hi = r.optimum.compute ? budget : everything;
    // Each step halves the bracket: about log2 of it solves, plus two.
    size_t steps = 2;
    for (Int w = hi - problem.fixed_at_end; w > 1; w /= 2) ++steps;
    ProgressBar bar("smallest budget", steps);
    BisectionHooks hooks;
    hooks.cancel = guard.flag();
    hooks.on_step = [&](const SmallestBudget& s) { bar.Update(s.solves); };
    least = SmallestFeasibleBudget(problem, hi, options, hooks);
    bar.Clear();
  }
  if (o.json) {
    Json j = RegretToJson(r);
    j["trace"] = sim.trace;
    if (sim.config.ratio) j["ratio"] = *sim.config.ratio;
    j["peak"] = Json(baseline.peak);
    j["baseline_compute"] = Json(baseline.compute);
    j["nodes"] = problem.nodes.size();
    j["variables"] = r.optimum.variables;
    j["constraints"] = r.optimum.constraints;
    j["engine"] = r.optimum.engine;
    j["search_states"] = r.optimum.search_states;
    j["recomputations"] = r.check.recomputations;
    if (least)
      j["smallest_budget"] = {
          {"budget", least->budget ? Json(*least->budget) : Json()},
          {"ratio", least->budget ? Json(TrueDivide(*least->budget, baseline.peak)) : Json()},
          {"solves", least->solves},
          {"seconds", least->seconds},
          {"bracket",
           {{"infeasible", Json(least->infeasible)},
            {"feasible", least->feasible ? Json(*least->feasible) : Json()}}},
          {"interrupted", least->cancelled}};
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "optimum     " << DescribeOptimum(r) << "\n"
              << "budget      " << IntToString(budget) << " bytes";
    if (sim.config.ratio)
      std::cout << " (ratio " << *sim.config.ratio << " of peak " << IntToString(baseline.peak)
                << ")";
    std::cout << "\n";
    if (r.optimum.compute)
      std::cout << "compute     " << IntToString(*r.optimum.compute) << " (baseline "
                << IntToString(baseline.compute) << "), " << r.check.recomputations
                << " recomputations\n";
    if (!r.optimum.proof.empty()) std::cout << "proof       " << r.optimum.proof << "\n";
    if (!r.optimum.incumbent_source.empty())
      std::cout << "warm start  the schedule is " << r.optimum.incumbent_source << "'s run\n";
    for (const std::string& gap : r.model_gaps) std::cout << "model gap   " << gap << "\n";
    std::cout << "lower bound " << Fixed(r.optimum.best_bound, 0) << " (proven for every schedule"
              << (r.optimum.bound_proof.empty() ? "" : ": " + r.optimum.bound_proof)
              << "); LP relaxation of the program " << Fixed(r.optimum.lp_bound, 0)
              << " (its log-order space only)\n";
    if (r.optimum.compute)
      std::cout << "schedule    "
                << (r.check.ok ? "checked: memory within the budget (peak " +
                                     IntToString(r.check.peak) + "), every output resident"
                               : "FAILED the check: " + r.check.error)
                << (o.schedule_path.empty() ? "" : " (" + o.schedule_path + ")") << "\n";
    std::cout << "heuristic   " << r.heuristic.config.heuristic << " on "
              << r.heuristic.config.runtime << ": " << StatusName(r.heuristic.status);
    if (r.heuristic.status == Status::kOk)
      std::cout << " " << Fixed(r.heuristic.Overhead(), 3) << "x";
    if (r.regret) std::cout << ", regret " << Fixed(*r.regret, 3) << "x";
    std::cout << "\n"
              << "solver      " << r.optimum.engine << ", " << problem.nodes.size()
              << " operators, " << r.optimum.search_states << " search states, "
              << r.optimum.variables << " variables, " << r.optimum.constraints << " constraints, "
              << Fixed(r.optimum.seconds, 2) << " s\n";
    if (least) {
      std::cout << "smallest    ";
      if (least->budget)
        std::cout << IntToString(*least->budget) << " bytes (ratio "
                  << Fixed(TrueDivide(*least->budget, baseline.peak), 4)
                  << " of peak): one byte less and no schedule fits";
      else if (least->cancelled)
        std::cout << "not found: interrupted";
      else
        std::cout << "not found (a solve was not proven within the time limit)";
      if (!least->budget && least->feasible)
        std::cout << "; it lies in (" << IntToString(least->infeasible) << ", "
                  << IntToString(*least->feasible) << "]";
      std::cout << ", " << least->solves << " solves, " << Fixed(least->seconds, 2) << " s\n";
    }
  }
  if (!checked) {
    std::cerr << "dtrcheck optimal: the schedule fails the independent check: " << r.check.error
              << "\n";
    return 1;
  }
  if ((least && least->cancelled) || guard.interrupted()) return kExitInterrupted;
  return 0;
}

}  // namespace

Action AddOptimalCommand(CLI::App& app) {
  auto o = std::make_shared<OptimalCommandOptions>();
  return {RegisterOptimal(app, o.get()), [o] { return RunOptimalCommand(*o); }};
}

}  // namespace dtrcheck
