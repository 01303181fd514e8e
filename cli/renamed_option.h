// An option renamed for one name per idea across commands (issue 41): the
// old name keeps working for one release, hidden from --help, and warns on
// stderr "dtrcheck CMD: --old is now --new; the old name goes in the next
// release". Remove each alias in the release after it was added.
#ifndef DTRCHECK_CLI_RENAMED_OPTION_H_
#define DTRCHECK_CLI_RENAMED_OPTION_H_

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace dtrcheck {

// Prints the warning, once per process (main may parse a command line twice).
void WarnRenamed(const CLI::App& cmd, const std::string& old_name, const std::string& new_name);

// Declares `old_name` on `cmd`, outside every help group; its value goes to
// `set` (which sets what `new_name` sets). Attach the new option's checks to
// the result.
template <class T>
CLI::Option* AddRenamedOption(CLI::App* cmd, const std::string& old_name,
                              const std::string& new_name, std::function<void(const T&)> set) {
  return cmd
      ->add_option_function<T>(
          old_name,
          [cmd, old_name, new_name, set](const T& value) {
            WarnRenamed(*cmd, old_name, new_name);
            set(value);
          },
          "renamed " + new_name)
      ->group("");
}

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_RENAMED_OPTION_H_
