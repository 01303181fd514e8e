// Subcommands of the dtrcheck tool. Each registers its options on the CLI11
// app and returns the action to run once parsing succeeds.
#ifndef DTRCHECK_CLI_COMMANDS_H_
#define DTRCHECK_CLI_COMMANDS_H_

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {

// Exit codes: 0 success, 1 the check failed (e.g. a divergence), 2 bad input.
constexpr int kExitBadInput = 2;

// Options shared by every command that runs simulations (run, diff, sweep...).
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

// A registered subcommand and what it does once the command line is parsed.
// Run functions may throw TraceError, std::invalid_argument or
// CLI::ValidationError; main turns them into a message and exit code 2.
struct Action {
  CLI::App* command;
  std::function<int()> run;
};
Action AddRunCommand(CLI::App& app);
Action AddReplayCommand(CLI::App& app);
Action AddDiffCommand(CLI::App& app);
Action AddOptimalCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_COMMANDS_H_
