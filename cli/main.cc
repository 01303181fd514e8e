// dtrcheck: differential and property-based verification of DTR eviction
// policies against simrd.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"dtrcheck: a bit-exact C++ simrd, and tools to hunt DTR pathologies"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, dtrcheck::Action>> commands;
  dtrcheck::Action run = dtrcheck::AddRunCommand(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : dtrcheck::kExitBadInput;
  }
  try {
    if (app.got_subcommand("run")) return run();
  } catch (const dtrcheck::TraceError& e) {
    std::cerr << "dtrcheck: " << e.what() << "\n";
    return dtrcheck::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "dtrcheck: " << e.what() << "\n";
    return dtrcheck::kExitBadInput;
  }
  return 0;
}
