// dtrcheck census (cli/census_command.cc).
#ifndef DTRCHECK_CLI_CENSUS_COMMAND_H_
#define DTRCHECK_CLI_CENSUS_COMMAND_H_

#include "cli/commands.h"

namespace dtrcheck {

Action AddCensusCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_CENSUS_COMMAND_H_
