// Subcommands about the public traces (cli/trace_commands.cc).
#ifndef DTRCHECK_CLI_TRACE_COMMANDS_H_
#define DTRCHECK_CLI_TRACE_COMMANDS_H_

#include "cli/commands.h"

namespace dtrcheck {

// trace-path NAME: the absolute path of a verified trace; exit 2 (listing the
// names) for an unknown one, or when it is missing or its SHA-256 is wrong.
Action AddTracePathCommand(CLI::App& app);
// traces: name, path and check of every public trace; exit 1 unless all verify.
Action AddTracesCommand(CLI::App& app);
// gen --shape S --seed N ... -o FILE: a synthetic trace (cli/gen_command.cc).
Action AddGenCommand(CLI::App& app);
// reduce TRACE --property P ... -o OUT.log (cli/reduce_command.cc).
Action AddReduceCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_TRACE_COMMANDS_H_
