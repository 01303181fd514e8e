// Typo suggestions (cli/suggest.h).
#include "cli/suggest.h"

#include <algorithm>

namespace dtrcheck {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string ClosestName(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = EditDistance(word, c);
    if (d < best_distance) best_distance = d, best = c;
  }
  return best;
}

namespace {

// The subcommand CLI11 was parsing when it stopped (or the app itself).
const CLI::App& ActiveCommand(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->parsed()) return ActiveCommand(*sub);
  return app;
}

std::vector<std::string> OptionNames(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::App* c = &cmd; c != nullptr; c = c->get_parent())
    for (const CLI::Option* o : c->get_options()) {
      for (const auto& n : o->get_lnames()) names.push_back("--" + n);
      for (const auto& n : o->get_snames()) names.push_back("-" + n);
    }
  return names;
}

}  // namespace

std::vector<std::string> SuggestionsFor(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App& cmd = ActiveCommand(app);
  std::vector<std::string> out;
  if (&cmd == &app) {  // no command was recognised: the first word is the typo
    std::vector<std::string> commands;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      commands.push_back(sub->get_name());
    for (const std::string& arg : args) {
      if (arg.empty() || arg[0] == '-') continue;
      if (std::string closest = ClosestName(arg, commands); !closest.empty())
        out.push_back("'" + arg + "' is not a dtrcheck command; did you mean '" + closest + "'?");
      break;
    }
    return out;
  }
  // Any --name the command does not know (CLI11 may have stopped at another
  // error first: a --ratoi leaves --ratio "required").
  const std::vector<std::string> options = OptionNames(cmd);
  for (const std::string& arg : args) {
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string word = arg.substr(0, arg.find('='));  // --ratoi=0.1
    if (std::find(options.begin(), options.end(), word) != options.end()) continue;
    if (std::string closest = ClosestName(word, options); !closest.empty())
      out.push_back("unknown option " + word + "; did you mean " + closest + "?");
  }
  return out;
}

}  // namespace dtrcheck
