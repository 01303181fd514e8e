// dtrcheck: differential and property-based verification of DTR eviction
// policies against simrd.
#include <iostream>
#include <stdexcept>

#include "cli/census_command.h"
#include "cli/commands.h"
#include "cli/fuzz_commands.h"
#include "cli/plugin_option.h"
#include "cli/sweep_commands.h"
#include "cli/trace_commands.h"
#include "sim/parse.h"
#include "sim/plugin_heuristic.h"
#include "sim/runtime.h"

int main(int argc, char** argv) {
  CLI::App app{"dtrcheck: a bit-exact C++ simrd, and tools to hunt DTR pathologies"};
  app.require_subcommand(1);
  // Before the subcommands, so that each inherits it (cli/plugin_option.h).
  const auto* plugins = dtrcheck::AddPluginOption(app);
  // Each subcommand lives in cli/<name>_command.cc.
  std::vector<dtrcheck::Action> actions = {
      dtrcheck::AddRunCommand(app),        dtrcheck::AddReplayCommand(app),
      dtrcheck::AddDiffCommand(app),       dtrcheck::AddTracePathCommand(app),
      dtrcheck::AddTracesCommand(app),     dtrcheck::AddSweepCommand(app),
      dtrcheck::AddGenCommand(app),        dtrcheck::AddReduceCommand(app),
      dtrcheck::AddDiagnoseCommand(app),   dtrcheck::AddCompareCommand(app),
      dtrcheck::AddScanCommand(app),       dtrcheck::AddReproduceCommand(app),
      dtrcheck::AddFuzzDecodeCommand(app), dtrcheck::AddCheckFindingCommand(app),
      dtrcheck::AddArchiveCommand(app),    dtrcheck::AddCensusCommand(app),
      dtrcheck::AddOptimalCommand(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dtrcheck::kExitBadInput;
  }
  try {
    dtrcheck::LoadPlugins(*plugins);
    for (auto& action : actions)
      if (action.command->parsed()) return action.run();
  } catch (const dtrcheck::TraceError& e) {
    std::cerr << "dtrcheck: " << e.what() << "\n";
    return dtrcheck::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dtrcheck: " << e.what() << "\n";
    return dtrcheck::kExitBadInput;
  } catch (const CLI::ValidationError& e) {
    std::cerr << "dtrcheck: " << e.what() << "\n";
    return dtrcheck::kExitBadInput;
  } catch (const dtrcheck::SimrdAssertion& e) {
    // Outside a recorded run (e.g. in the unbounded baseline run): the trace
    // is one that simrd itself cannot replay.
    std::cerr << "dtrcheck: simrd cannot replay this trace (its assertion fails: " << e.what()
              << ")\n";
    return dtrcheck::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "dtrcheck: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
