// "did you mean ...?" for a mistyped subcommand or option, as git and cargo
// say it. CLI11 only says that an argument was not expected; main asks here
// for the closest known name.
#ifndef DTRCHECK_CLI_SUGGEST_H_
#define DTRCHECK_CLI_SUGGEST_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dtrcheck {

// Levenshtein distance (insertions, deletions, substitutions; a swap of two
// neighbours counts as one, as in Damerau's "optimal string alignment").
size_t EditDistance(const std::string& a, const std::string& b);

// The candidate closest to `word`, if it is close enough to be a typo (at
// most a third of its length, and at least 1, edits away); "" otherwise.
std::string ClosestName(const std::string& word, const std::vector<std::string>& candidates);

// After a failed parse of `args` (argv without argv[0]): a line "'swep' is
// not a dtrcheck command; did you mean 'sweep'?" when no command was
// recognised, or "unknown option --ratoi; did you mean --ratio?" for each
// option the parsed command does not know. Empty when nothing is close.
std::vector<std::string> SuggestionsFor(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SUGGEST_H_
