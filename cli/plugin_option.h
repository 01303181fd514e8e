// --plugin PATH.so, the one option that brings outside heuristics into every
// command: it is declared once on the top-level app and accepted after any
// subcommand (CLI11 fallthrough), and the plugins are loaded after parsing,
// before any command runs, so that each command's own --heuristic /
// --heuristics check (FinishSimulationOptions, sweep's CheckPair...) sees
// their names. The loader is plugins/plugin_heuristic.h (LoadPlugins, which also
// reads DTRCHECK_PLUGINS).
#ifndef DTRCHECK_CLI_PLUGIN_OPTION_H_
#define DTRCHECK_CLI_PLUGIN_OPTION_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dtrcheck {

// Adds --plugin (repeatable) to `app` and makes subcommands added after
// this call accept it. The returned list lives as long as the process.
const std::vector<std::string>* AddPluginOption(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_PLUGIN_OPTION_H_
