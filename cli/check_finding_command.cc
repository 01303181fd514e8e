// dtrcheck check-finding: replay archived counterexamples
// (corpus/<kind>/<id>/manifest.json, analysis/archived_finding.h). ctest
// runs it on every archived finding, in dtrcheck (label archive) and in
// simrd (label oracle).
#include <iostream>

#include "analysis/archived_finding.h"
#include "cli/fuzz_commands.h"

namespace dtrcheck {

namespace {

// ctest's SKIP_RETURN_CODE: simrd is not installed.
constexpr int kExitSkipped = 77;

struct CheckArgs {
  std::vector<std::string> manifests;
  bool simrd = false;
};

int RunCheck(const CheckArgs& args) {
  int failed = 0, skipped = 0;
  for (const auto& path : args.manifests) {
    ArchivedFinding f = ReadArchivedFinding(path);
    ArchiveReplay r = args.simrd ? ReplayInSimrd(f) : ReplayInDtrcheck(f);
    std::cout << DescribeReplay(f, r, args.simrd ? "simrd" : "dtrcheck") << "\n";
    if (!r.available)
      ++skipped;
    else if (!r.holds)
      ++failed;
  }
  if (failed) return 1;
  return skipped ? kExitSkipped : 0;
}

}  // namespace

Action AddCheckFindingCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check-finding", "replay archived counterexamples: does each still show its pathology?");
  auto args = std::make_shared<CheckArgs>();
  cmd->add_option("MANIFEST", args->manifests,
                  "corpus/<kind>/<id>/manifest.json, or the entry's directory")
      ->required();
  cmd->add_flag("--simrd", args->simrd,
                "replay in simrd instead (exit 77 when simrd is not installed)");
  return {cmd, [args]() { return RunCheck(*args); }};
}

}  // namespace dtrcheck
