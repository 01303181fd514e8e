// The options every command that simulates shares (run, diff, diagnose,
// optimal, sweep, compare, scan, reduce): the trace, the configuration, the
// budget and the parse options, declared and validated in one place.
#ifndef DTRCHECK_CLI_SIMULATION_OPTIONS_H_
#define DTRCHECK_CLI_SIMULATION_OPTIONS_H_

#include <string>

#include <CLI/CLI.hpp>

#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct SimulationOptions {
  std::string trace;
  RunConfig config;
  ParseOptions parse;
  std::string seed_text, budget_text, remat_limit_text;
};

// Adds TRACE, --runtime, --heuristic, --budget/--ratio (required unless
// `budget_optional`), --baseline-runtime, --overhead-limit/--remat-limit,
// --seed and the parse options.
void AddSimulationOptions(CLI::App* cmd, SimulationOptions* opts, bool budget_optional = false);
// Validates the textual options into opts->config. Throws CLI::ValidationError.
void FinishSimulationOptions(SimulationOptions* opts);

// The heuristics a --heuristic or --heuristics option takes, for its help:
// simrd's, then dtrcheck's own (policies/; those that read addresses marked
// as needing --memory cuda-caching or arena), then a plugin's. The one place
// that lists them; it registers the own ones (as LoadPlugins does, once),
// since help is built before any is loaded.
std::string HeuristicNamesHelp();

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SIMULATION_OPTIONS_H_
