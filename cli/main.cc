// dtrcheck: differential and property-based verification of DTR eviction
// policies against simrd.
//
// Every error goes out here, in one style: "dtrcheck COMMAND: what" (or
// "dtrcheck: what" before a command is known) on stderr, naming file and line
// when there is one; with --json, one JSON object {"error", "command",
// "file", "line"} on stderr instead, and stdout stays empty.
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <stdexcept>

#include "cli/commands.h"
#include "cli/heap_pages.h"
#include "cli/plugin_option.h"
#include "cli/provenance.h"
#include "cli/suggest.h"
#include "cli/trace_argument.h"
#include "io/json_fields.h"
#include "optimal/milp_solver.h"
#include "plugins/plugin_heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"

namespace {

// Exit code of a command that ran out of memory (std::bad_alloc, from any
// allocation, under a memory limit or not): neither bad input (2) nor a
// failed check (1) nor a bug (1, "internal error"), but a run that needs a
// larger machine or a smaller trace (docs/commands.md, "Exit codes").
constexpr int kExitOutOfMemory = 4;

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

// Each subcommand lives in cli/<name>_command.cc; its name here only lets
// main build that one alone (see CommandLine).
struct Command {
  const char* name;
  dtrcheck::Action (*add)(CLI::App&);
};
constexpr Command kCommands[] = {
    {"run", dtrcheck::AddRunCommand},
    {"replay", dtrcheck::AddReplayCommand},
    {"diff", dtrcheck::AddDiffCommand},
    {"trace-path", dtrcheck::AddTracePathCommand},
    {"traces", dtrcheck::AddTracesCommand},
    {"sweep", dtrcheck::AddSweepCommand},
    {"gen", dtrcheck::AddGenCommand},
    {"reduce", dtrcheck::AddReduceCommand},
    {"diagnose", dtrcheck::AddDiagnoseCommand},
    {"compare", dtrcheck::AddCompareCommand},
    {"scan", dtrcheck::AddScanCommand},
    {"reproduce", dtrcheck::AddReproduceCommand},
    {"fuzz-decode", dtrcheck::AddFuzzDecodeCommand},
    {"check-finding", dtrcheck::AddCheckFindingCommand},
    {"archive", dtrcheck::AddArchiveCommand},
    {"census", dtrcheck::AddCensusCommand},
    {"optimal", dtrcheck::AddOptimalCommand},
    {"fuzz-diff", dtrcheck::AddFuzzDiffCommand},
    {"fuzz-optimal", dtrcheck::AddFuzzOptimalCommand},
    {"bucket", dtrcheck::AddBucketCommand},
    {"kinds", dtrcheck::AddKindsCommand},
};

// The command line's parser: the program's options and its subcommands,
// all of them, or only the one named `only`.
struct CommandLine {
  explicit CommandLine(const char* only)
      : app("dtrcheck: a bit-exact C++ simrd, and tools to hunt DTR pathologies") {
    app.require_subcommand(1);
    app.formatter(dtrcheck::TraceHelpFormatter());  // before the subcommands, which copy it
    app.set_version_flag("--version", dtrcheck::VersionText(),
                         "print the version, the dtrcheck "
                         "commit and the simrd commit");
    // Before the subcommands, so that each inherits it (cli/plugin_option.h).
    plugins = dtrcheck::AddPluginOption(app);
    for (const Command& c : kCommands)
      if (only == nullptr || std::strcmp(only, c.name) == 0) actions.push_back(c.add(app));
  }
  CLI::App app;
  const std::vector<std::string>* plugins;
  std::vector<dtrcheck::Action> actions;
};

// The argument names a subcommand: the one to build alone, or nullptr.
const char* NamedCommand(int argc, char** argv) {
  if (argc < 2) return nullptr;
  for (const Command& c : kCommands)
    if (std::strcmp(argv[1], c.name) == 0) return c.name;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  dtrcheck::UseHugePagesForHeap();  // cli/heap_pages.h: why
  dtrcheck::RecordCommandLine(argc, argv);
  ErrorStyle style;
  for (int i = 1; i < argc; ++i) style.json = style.json || std::strcmp(argv[i], "--json") == 0;

  // Building all twenty subcommands' options takes about 2 ms, a tenth of
  // a short run: when the first argument names a subcommand, that one is
  // built alone. Anything its parse does not accept (help included) is
  // parsed again with all of them, so messages, suggestions and help are
  // always those of the whole command line.
  std::unique_ptr<CommandLine> line;
  if (const char* only = NamedCommand(argc, argv)) {
    line = std::make_unique<CommandLine>(only);
    // The table repeats each subcommand's name; a wrong one would build
    // another subcommand (and only cost the speed-up, through the parse
    // error below), so it is an error here, which every test of the
    // command then shows.
    const CLI::App& parser = line->app;
    const auto built = parser.get_subcommands(std::function<bool(const CLI::App*)>());
    if (built.size() != 1 || built[0]->get_name() != only)
      return style.Report(std::string("internal error: the command table's \"") + only +
                              "\" builds another subcommand (cli/main.cc, kCommands)",
                          "", 0, 1);
    try {
      line->app.parse(argc, argv);
    } catch (const CLI::ParseError&) {
      line.reset();
    }
  }
  if (!line) {
    line = std::make_unique<CommandLine>(nullptr);
    CLI::App& app = line->app;
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
  }
  style.command = ParsedCommand(line->app);
  const auto* plugins = line->plugins;
  std::vector<dtrcheck::Action>& actions = line->actions;
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
  } catch (const std::bad_alloc&) {
    // The failed allocation's memory was never taken and unwinding has
    // given back what the command held: there is room for one line.
    return style.Report(
        "out of memory (a memory limit, ulimit -v or the machine's, was reached; exit 4)", "", 0,
        kExitOutOfMemory);
  } catch (const std::exception& e) {
    return style.Report(std::string("internal error: ") + e.what(), "", 0, 1);
  }
  return 0;
}
