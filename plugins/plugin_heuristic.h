// Heuristics from outside simrd: the adapter from the public extension API
// (include/dtrcheck/heuristic.h) to the simulator's Heuristic, registered
// into the simulator's registry (sim/heuristic.h, RegisterHeuristic), and
// the loader of plugin libraries (`--plugin PATH.so`).
#ifndef DTRCHECK_PLUGINS_PLUGIN_HEURISTIC_H_
#define DTRCHECK_PLUGINS_PLUGIN_HEURISTIC_H_

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtrcheck/heuristic.h"
#include "sim/heuristic.h"

namespace dtrcheck {

// A plugin failed: it could not be loaded, or one of its heuristics threw.
// An invalid_argument, so that every command reports it and exits 2.
class PluginError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

using ApiFactory = std::function<std::unique_ptr<api::Heuristic>(Int seed)>;

// Registers an API heuristic under `name` in the simulator's registry
// (origin: the plugin path, for messages). Throws PluginError if the name is
// simrd's or already taken. Not thread-safe: register before running
// anything. abi_version: the header version the heuristic was built against
// (a version-1 heuristic's ChooseVictims is never called: it has none).
void RegisterApiHeuristic(const std::string& name, const std::string& label,
                          const std::string& origin, ApiFactory make,
                          int abi_version = api::kAbiVersion);

// dlopens `path` (kept loaded for the process), checks its ABI version and
// calls its registration entry point. Throws PluginError: a missing or
// unloadable file, a library without the entry points or whose entry points
// are not functions, another ABI version, a name clash, an exception from
// its entry points. Loading the same path twice is a no-op.
//
// The first load also installs a fatal-signal handler (SIGSEGV, SIGBUS,
// SIGILL, SIGFPE, SIGABRT, on an alternate stack): a crash while a plugin's
// code runs (its loading, entry points, factory, Score, Choose) prints
// "dtrcheck: SIGSEGV ... inside plugin PATH: heuristic NAME: Score ..." on
// stderr, then the previous disposition takes the signal (the process still
// dies of it, exit 128 + signal). Crashes elsewhere print nothing new.
// Either way the handler first runs the cleanup set by
// SetFatalSignalCleanup (base/fatal_signal_cleanup.h).
void LoadPlugin(const std::string& path);

// The plugins named by the environment variable DTRCHECK_PLUGINS (paths
// separated by ':', as pytest reads PYTEST_PLUGINS), then `paths`, each
// loaded once. The fuzzers, which take no options, read the variable too,
// so a campaign sets it once for every process it starts.
// Registers dtrcheck's own address-aware policies (policies/: DTE, Coop,
// MegEngineDTR, MegEngineDTRSqrt) first, once, as the simulator's own
// (sim/heuristic.h, RegisterOwnHeuristic).
void LoadPlugins(const std::vector<std::string>& paths = {});

// The policies alone (LoadPlugins calls it; idempotent).
void RegisterAddressPolicies();

}  // namespace dtrcheck

#endif  // DTRCHECK_PLUGINS_PLUGIN_HEURISTIC_H_
