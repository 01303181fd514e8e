// The TRACE transform (cli/trace_argument.h).
#include "cli/trace_argument.h"

#include "traces/captured.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {
std::vector<std::string>& Resolved() {
  static std::vector<std::string> resolved;
  return resolved;
}
}  // namespace

const std::vector<std::string>& ResolvedTraces() { return Resolved(); }

CLI::Validator TraceArgument() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          value = ResolveTraceArgument(value);
          Resolved().push_back(value);
        } catch (const TraceLocateError& e) {
          return e.what();  // CLI11 reports it as "TRACE: <message>"
        }
        return {};
      },
      "FILE|NAME", "trace file or name");
}

std::string TraceArgumentHelp() {
  return std::string("simrd execution log (JSON lines): a file, or a trace name (") + kTraceNames +
         ")";
}

namespace {

class TraceNamesFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* option) const override {
    std::string text = CLI::Formatter::make_option_desc(option);
    const std::string token = kTraceNames;
    if (size_t at = text.find(token); at != std::string::npos)
      text.replace(at, token.size(), PublicTraceNames() + "; captured: " + CapturedTraceNames());
    return text;
  }
  // CLI11 follows the last group of options with a blank line when hidden
  // options (group "": the old names of cli/renamed_option.h) come after
  // it; the help stays as it was without them.
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    std::string text = CLI::Formatter::make_help(app, std::move(name), mode);
    const std::vector<std::string> groups = app->get_groups();
    if (!groups.empty() && groups.back().empty() && text.size() >= 3 &&
        text.compare(text.size() - 3, 3, "\n\n\n") == 0)
      text.pop_back();
    return text;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> TraceHelpFormatter() {
  return std::make_shared<TraceNamesFormatter>();
}

}  // namespace dtrcheck
