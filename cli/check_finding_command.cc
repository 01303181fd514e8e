// dtrcheck check-finding: replay archived counterexamples
// (corpus/<kind>/<id>/manifest.json, analysis/archived_finding.h). ctest
// runs it on every archived finding, in dtrcheck (label archive) and in
// simrd (label oracle).
#include <iostream>
#include <optional>

#include "analysis/archived_finding.h"
#include "analysis/finding_manifest.h"
#include "cli/commands.h"
#include "cli/number_option.h"
#include "optimal/regret.h"
#include "sim/parse.h"

namespace dtrcheck {

namespace {

// ctest's SKIP_RETURN_CODE: simrd is not installed.
constexpr int kExitSkipped = 77;

struct CheckFindingOptions {
  std::vector<std::string> manifests;
  bool simrd = false;
  bool json = false;  // one JSON object: {"findings": [...], "failed", "skipped"}
  bool optimal = false, record = false;
  double time_limit = 60;
};

// The optimum at the finding's budgets (optimal/regret.h): printed, and with
// --record kept in the manifest's "optimal" block.
Json ShowOptimum(const ArchivedFinding& f, const Graph& g, const CheckFindingOptions& args) {
  OptimalOptions options;
  options.time_limit_seconds = args.time_limit;
  Json optimum = FindingOptimum(g, f.spec, options);
  if (!args.json) std::cout << "  optimal: " << optimum["verdict"].get<std::string>() << "\n";
  if (!args.record) return optimum;
  FindingManifest m = ReadFindingManifest(f.manifest);
  m.optimal = optimum;
  WriteFindingManifest(m, f.manifest);
  return optimum;
}

int RunCheckFinding(const CheckFindingOptions& args) {
  int failed = 0, skipped = 0;
  Json findings = Json::array();
  const std::string who = args.simrd ? "simrd" : "dtrcheck";
  for (const auto& path : args.manifests) {
    ArchivedFinding f = ReadArchivedFinding(path);
    Json j = {{"manifest", f.manifest}, {"kind", f.kind}, {"id", f.id}, {"replayed_in", who}};
    // The bytes first: a replay of an edited trace would judge another trace.
    if (std::string changed = CheckArchivedTraceIntegrity(f); !changed.empty()) {
      ++failed;
      j["verdict"] = "trace-changed";
      j["detail"] = changed;
      if (!args.json)
        std::cout << f.kind << " " << f.manifest << ": NOT REPLAYED, " << changed << "\n";
      findings.push_back(j);
      continue;
    }
    // The trace parsed once, for the replay and the optimum alike.
    std::optional<Graph> graph;
    auto parsed = [&]() -> const Graph& {
      if (!graph) graph = ParseTraceFile(f.trace);
      return *graph;
    };
    ArchiveReplay r = args.simrd ? ReplayInSimrd(f) : ReplayInDtrcheck(f, parsed());
    if (!args.json) std::cout << DescribeReplay(f, r, who) << "\n";
    if (args.optimal) j["optimal"] = ShowOptimum(f, parsed(), args);
    if (!r.available)
      ++skipped;
    else if (!r.holds)
      ++failed;
    j["verdict"] = !r.available ? "skipped" : r.holds ? "holds" : "gone";
    j["detail"] = r.detail;
    findings.push_back(j);
  }
  if (args.json)
    std::cout << Json{{"findings", findings}, {"failed", failed}, {"skipped", skipped}}.dump(2)
              << "\n";
  if (failed) return 1;
  return skipped ? kExitSkipped : 0;
}

CLI::App* RegisterCheckFinding(CLI::App& app, CheckFindingOptions* args) {
  auto* cmd = app.add_subcommand(
      "check-finding", "replay archived counterexamples: does each still show its pathology?");
  cmd->add_option("MANIFEST", args->manifests,
                  "corpus/<kind>/<id>/manifest.json, or the entry's directory")
      ->required();
  cmd->add_flag("--simrd", args->simrd,
                "replay in simrd instead (exit 77 when simrd is not installed)");
  cmd->add_flag("--json", args->json, "print one JSON object: each finding's verdict");
  cmd->add_flag("--optimal", args->optimal,
                "also solve for the minimum-compute schedule at both budgets and print the "
                "heuristic's regret (dtrcheck optimal)");
  cmd->add_flag("--record", args->record, "with --optimal: keep it in the manifest");
  cmd->add_option("--time-limit", args->time_limit, "with --optimal: seconds per solve")
      ->check(FiniteRange(0.01, 1e6))
      ->capture_default_str();
  return cmd;
}

}  // namespace

Action AddCheckFindingCommand(CLI::App& app) {
  auto args = std::make_shared<CheckFindingOptions>();
  return {RegisterCheckFinding(app, args.get()), [args] { return RunCheckFinding(*args); }};
}

}  // namespace dtrcheck
