// The sweep family of subcommands: sweep, diagnose, compare, scan, reproduce
// (cli/<name>_command.cc).
#ifndef DTRCHECK_CLI_SWEEP_COMMANDS_H_
#define DTRCHECK_CLI_SWEEP_COMMANDS_H_

#include "cli/commands.h"

namespace dtrcheck {

Action AddSweepCommand(CLI::App& app);
Action AddDiagnoseCommand(CLI::App& app);
Action AddCompareCommand(CLI::App& app);
Action AddScanCommand(CLI::App& app);
Action AddReproduceCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SWEEP_COMMANDS_H_
