// Report provenance (cli/provenance.h).
#include "cli/provenance.h"

#include <cstdlib>
#include <ctime>

#include "cli/build_info.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

std::vector<std::string>& Arguments() {
  static std::vector<std::string> args;
  return args;
}

std::string UtcDate() {
  std::time_t now = std::time(nullptr);
  if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"))
    now = static_cast<std::time_t>(std::strtoll(epoch, nullptr, 10));
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

void RecordCommandLine(int argc, char** argv) { Arguments().assign(argv + 1, argv + argc); }

std::string ShellQuote(const std::string& arg) {
  if (!arg.empty() &&
      arg.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                            "_./=:,+-") == std::string::npos)
    return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string CommandLine() {
  std::string out = "dtrcheck";
  for (const auto& a : Arguments()) out.append(" ").append(ShellQuote(a));  // (GCC 12 -Wrestrict)
  return out;
}

std::string VersionText() {
  return std::string("dtrcheck ") + DTRCHECK_VERSION + " (commit " + DTRCHECK_COMMIT +
         "), reproducing simrd at commit " + DTRCHECK_SIMRD_COMMIT +
         " (uwsampl/dtr-prototype, folder simrd/)";
}

std::string ProvenanceMarkdown(const std::vector<std::string>& trace_paths) {
  std::string out = std::string(kProvenanceBegin) + "\n## Provenance\n\n";
  out += "- command: `" + CommandLine() + "`\n";
  out += std::string("- dtrcheck: ") + DTRCHECK_VERSION + ", commit " + DTRCHECK_COMMIT + "\n";
  out += std::string("- simrd: commit ") + DTRCHECK_SIMRD_COMMIT + "\n";
  for (const auto& path : trace_paths)
    out += "- trace `" + path + "`: SHA-256 " + Sha256OfFile(path) + "\n";
  out += "- date: " + UtcDate() + "\n";
  return out + kProvenanceEnd + "\n";
}

}  // namespace dtrcheck
