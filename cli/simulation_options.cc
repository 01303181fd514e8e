// The options of every simulating command (cli/simulation_options.h).
#include "cli/simulation_options.h"

#include <map>

#include "cli/number_option.h"
#include "cli/trace_argument.h"
#include "plugins/plugin_heuristic.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"
#include "sim/runtime.h"

namespace dtrcheck {

std::string HeuristicNamesHelp() {
  RegisterAddressPolicies();
  std::string simrd, own, addresses;
  for (const auto& n : HeuristicNames()) simrd += " " + n;
  for (const auto& n : OwnHeuristicNames()) (ReadsAddresses(n) ? addresses : own) += " " + n;
  std::string out = "simrd's:" + simrd;
  if (!own.empty()) out += "; dtrcheck's own:" + own;
  if (!addresses.empty())
    out += "; dtrcheck's own that read addresses (only with --memory cuda-caching or arena):" +
           addresses;
  return out + "; or a name a --plugin registers";
}

void AddSimulationOptions(CLI::App* cmd, SimulationOptions* o, bool budget_optional) {
  cmd->add_option("TRACE", o->trace, TraceArgumentHelp())->required()->transform(TraceArgument());
  std::string runtimes;
  for (const auto& n : RuntimeNames()) runtimes += " " + n;
  cmd->add_option("--runtime", o->config.runtime, "simrd runtime class:" + runtimes)
      ->capture_default_str();
  cmd->add_option("--heuristic", o->config.heuristic, "heuristic, " + HeuristicNamesHelp())
      ->capture_default_str();
  auto* budget = cmd->add_option("--budget", o->budget_text, "memory budget in bytes")
                     ->check(IntegerText(/*non_negative=*/true));
  auto* ratio = cmd->add_option("--ratio", o->config.ratio,
                                "budget = int(peak * R), peak from an unbounded baseline run")
                    ->check(FiniteRange(0.0, 1e6));
  budget->excludes(ratio);
  if (!budget_optional) {
    auto* group = cmd->add_option_group("budget");
    group->add_option(budget);
    group->add_option(ratio);
    group->require_option(1);
  }
  cmd->add_option("--baseline-runtime", o->config.baseline_runtime,
                  "runtime of the unbounded baseline run")
      ->capture_default_str();
  auto* ol = cmd->add_option("--overhead-limit", o->config.overhead_limit,
                             "thrash when remat_compute > baseline_compute * (X - 1)")
                 ->check(FiniteRange(1.0, 1e300));
  auto* rl = cmd->add_option("--remat-limit", o->remat_limit_text, "thrash when remat_compute > N")
                 ->check(IntegerText(/*non_negative=*/true));
  ol->excludes(rl);
  cmd->add_option("--seed", o->seed_text,
                  "random.seed(S) for RandomStorage and AbRandom (default 0)")
      ->check(IntegerText(/*non_negative=*/false));
  const std::map<std::string, RegionRebuilds> rebuilds = {
      {"update", RegionRebuilds::kUpdate},
      {"walk", RegionRebuilds::kWalk},
      {"checked", RegionRebuilds::kUpdateChecked}};
  cmd->add_option("--region-rebuilds", o->config.region_rebuilds,
                  "update (default): update a region's last walk when possible; walk: always "
                  "walk, as simrd; checked: update, then walk and stop if they differ. "
                  "Records are the same")
      ->transform(CLI::CheckedTransformer(rebuilds));
  cmd->add_flag(
      "--no-start", [o](int64_t) { o->parse.start = false; },
      "the log has no START annotation; replay it from the first line");
  cmd->add_flag(
      "--preallocate", [o](int64_t) { o->parse.out_cond = OutputCondition::kPreallocate; },
      "outputs are preallocated instead of pinned at the end");
  cmd->add_flag(
      "--strict-release", [o](int64_t) { o->parse.ignore_undefined_release = false; },
      "a RELEASE of an undefined name is an error");
}

void FinishSimulationOptions(SimulationOptions* o) {
  if (!o->budget_text.empty()) o->config.budget = ParseIntOption(o->budget_text, "--budget", true);
  if (!o->remat_limit_text.empty())
    o->config.remat_limit = ParseIntOption(o->remat_limit_text, "--remat-limit", true);
  if (!o->seed_text.empty()) o->config.seed = ParseIntOption(o->seed_text, "--seed", false);
  if (!RuntimeKindFromName(o->config.runtime) || !RuntimeKindFromName(o->config.baseline_runtime)) {
    std::string valid;
    for (const auto& n : RuntimeNames()) valid += " " + n;
    throw CLI::ValidationError("--runtime", "unknown runtime; valid:" + valid);
  }
  if (!MakeHeuristic(o->config.heuristic) || o->config.heuristic == "Heuristic") {
    std::string valid;
    for (const auto& n : AllHeuristicNames()) valid += " " + n;
    throw CLI::ValidationError("--heuristic",
                               "unknown heuristic \"" + o->config.heuristic + "\"; valid:" + valid);
  }
}

}  // namespace dtrcheck
