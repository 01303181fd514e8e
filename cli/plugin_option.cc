#include "cli/plugin_option.h"

#include "plugins/plugin_heuristic.h"

namespace dtrcheck {

const std::vector<std::string>* AddPluginOption(CLI::App& app) {
  static std::vector<std::string> paths;
  app.add_option("--plugin", paths,
                 "shared library registering eviction heuristics (include/dtrcheck/heuristic.h); "
                 "repeatable, accepted by every command")
      ->allow_extra_args(false)
      ->take_all();
  app.fallthrough();  // inherited by the subcommands added next
  return &paths;
}

}  // namespace dtrcheck
