// dtrcheck: differential and property-based verification of DTR eviction
// policies against simrd.
//
// Every error goes out here, in one style: "dtrcheck COMMAND: what" (or
// "dtrcheck: what" before a command is known) on stderr, naming file and line
// when there is one; with --json, one JSON object {"error", "command",
// "file", "line"} on stderr instead, and stdout stays empty.
#include <cstring>
#include <iostream>
#include <stdexcept>

#include "cli/census_command.h"
#include "cli/commands.h"
#include "cli/fuzz_commands.h"
#include "cli/heap_pages.h"
#include "cli/plugin_option.h"
#include "cli/provenance.h"
#include "cli/suggest.h"
#include "cli/sweep_commands.h"
#include "cli/trace_argument.h"
#include "cli/trace_commands.h"
#include "io/json_fields.h"
#include "optimal/milp_solver.h"
#include "sim/parse.h"
#include "sim/plugin_heuristic.h"
#include "sim/runtime.h"

namespace {

// How errors are printed: the command they belong to, and text or JSON.
struct ErrorStyle {
  std::string command;  // "" before a subcommand is known
  bool json = false;

  int Report(const std::string& message, const std::string& file = "", long line = 0,
             int code = dtrcheck::kExitBadInput) const {
    if (json) {
      dtrcheck::Json j = {{"error", message}, {"command", command}};
      if (!file.empty()) j["file"] = file;
      if (line > 0) j["line"] = line;
      std::cerr << j.dump() << "\n";
    } else {
      std::cerr << "dtrcheck" << (command.empty() ? "" : " " + command) << ": " << message << "\n";
    }
    return code;
  }
};

// The name of the subcommand being parsed, "" for none.
std::string ParsedCommand(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->parsed()) return sub->get_name();
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  dtrcheck::UseHugePagesForHeap();  // cli/heap_pages.h: why
  dtrcheck::RecordCommandLine(argc, argv);
  ErrorStyle style;
  for (int i = 1; i < argc; ++i) style.json = style.json || std::strcmp(argv[i], "--json") == 0;

  CLI::App app{"dtrcheck: a bit-exact C++ simrd, and tools to hunt DTR pathologies"};
  app.require_subcommand(1);
  app.formatter(dtrcheck::TraceHelpFormatter());  // before the subcommands, which copy it
  app.set_version_flag("--version", dtrcheck::VersionText(),
                       "print the version, the dtrcheck "
                       "commit and the simrd commit");
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
      dtrcheck::AddOptimalCommand(app),    dtrcheck::AddFuzzDiffCommand(app),
      dtrcheck::AddBucketCommand(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version print on stdout and succeed.
    if (e.get_exit_code() == 0 || dynamic_cast<const CLI::CallForHelp*>(&e) ||
        dynamic_cast<const CLI::CallForAllHelp*>(&e) ||
        dynamic_cast<const CLI::CallForVersion*>(&e))
      return app.exit(e) == 0 ? 0 : dtrcheck::kExitBadInput;
    style.command = ParsedCommand(app);
    std::string message = e.what();
    for (const auto& s : dtrcheck::SuggestionsFor(app, {argv + 1, argv + argc}))
      message += "\n" + s;
    if (!style.json)
      message += "\nrun 'dtrcheck" + (style.command.empty() ? "" : " " + style.command) +
                 " --help' for usage";
    return style.Report(message);
  }
  style.command = ParsedCommand(app);
  try {
    dtrcheck::LoadPlugins(*plugins);
    for (auto& action : actions)
      if (action.command->parsed()) return action.run();
  } catch (const dtrcheck::TraceError& e) {
    return style.Report(e.what(), e.file(), e.line());
  } catch (const std::invalid_argument& e) {
    return style.Report(e.what());
  } catch (const CLI::ValidationError& e) {
    return style.Report(e.what());
  } catch (const dtrcheck::SimrdAssertion& e) {
    // Outside a recorded run (e.g. in the unbounded baseline run): the trace
    // is one that simrd itself cannot replay. FILE:LINE when the command
    // read one trace and the line is known.
    const auto& traces = dtrcheck::ResolvedTraces();
    const bool located = e.line > 0 && traces.size() == 1;
    const std::string where =
        located ? traces.front() + ":" + std::to_string(e.line) + ": " : std::string();
    return style.Report(
        where + "simrd cannot replay this trace (its assertion fails: " + e.what() + ")",
        located ? traces.front() : "", located ? e.line : 0);
  } catch (const dtrcheck::SolverModuleError& e) {  // an installation problem
    return style.Report(e.what(), "", 0, 1);
  } catch (const std::exception& e) {
    return style.Report(std::string("internal error: ") + e.what(), "", 0, 1);
  }
  return 0;
}
