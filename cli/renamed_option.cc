// Renamed options' warnings (cli/renamed_option.h).
#include "cli/renamed_option.h"

#include <iostream>
#include <set>

namespace dtrcheck {

void WarnRenamed(const CLI::App& cmd, const std::string& old_name, const std::string& new_name) {
  static std::set<std::string> warned;
  if (!warned.insert(cmd.get_name() + " " + old_name).second) return;
  std::cerr << "dtrcheck " << cmd.get_name() << ": " << old_name << " is now " << new_name
            << "; the old name goes in the next release\n";
}

}  // namespace dtrcheck
