// dtrcheck fuzz-decode: triage a pathology_fuzzer input. Decodes it with the
// fuzzer's own decoder (fuzz/lib/fuzz_case.h), writes the trace, reruns the
// sweep and lists the findings the fuzzer could have reported.
#include <iostream>
#include <sstream>

#include "analysis/format.h"
#include "cli/commands.h"
#include "cli/number_option.h"
#include "cli/renamed_option.h"
#include "fuzz/lib/fuzz_case.h"
#include "fuzz/lib/fuzz_check.h"
#include "io/atomic_file.h"
#include "io/input_file.h"
#include "io/trace_writer.h"

namespace dtrcheck {

namespace {

struct FuzzDecodeOptions {
  std::string artifact, out;
  bool json = false, check = true;
  std::optional<double> cliff_factor, cliff_gap;
};

// A fuzzer input is a few kilobytes (kFuzzCaseBytes are used); a larger
// file, a directory or a device is not one (io/json.h ReadSmallFile).
constexpr size_t kMaxArtifactBytes = size_t{1} << 20;

std::string ShellWords(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += " " + w;
  return s;
}

int RunFuzzDecode(const FuzzDecodeOptions& args) {
  std::string bytes = ReadSmallFile(args.artifact, kMaxArtifactBytes);
  if (!args.out.empty()) RefuseSameFile(args.artifact, "ARTIFACT", args.out, "-o");
  FuzzCase c = DecodeFuzzCase(bytes);
  TraceLog log = FuzzCaseTrace(c);
  if (!args.out.empty()) WriteTraceLogFile(log, args.out);
  FuzzCheckOptions options = FuzzCheckOptionsFromEnv();
  if (args.cliff_factor) options.cliff_factor = *args.cliff_factor;
  if (args.cliff_gap) options.cliff_gap = *args.cliff_gap;

  Json j;
  j["artifact"] = args.artifact;
  j["bytes"] = bytes.size();
  j["case"] = FuzzCaseToJson(c);
  j["trace"] = {
      {"path", args.out}, {"instructions", log.instrs.size()}, {"operators", log.NumOperators()}};
  j["options"] = {{"cliff_factor", options.cliff_factor}, {"cliff_gap", options.cliff_gap}};
  if (!args.json) {
    std::cout << "fuzz case " << args.artifact << " (" << bytes.size() << " bytes, "
              << kFuzzCaseBytes << " used)\n"
              << DescribeFuzzCase(c) << "operators: " << log.NumOperators() << " ("
              << log.instrs.size() << " instructions)"
              << (args.out.empty() ? "" : ", written to " + args.out) << "\n";
  }
  if (!args.check) {
    if (args.json) std::cout << j.dump(2) << "\n";
    return 0;
  }

  FuzzCheck check = CheckFuzzCase(c, options);
  j["baseline"] = {{"peak", Json(check.baseline.peak)}, {"compute", Json(check.baseline.compute)}};
  Json points = Json::array();
  for (const auto& p : check.points)
    points.push_back({{"ratio", *p.record.config.ratio},
                      {"budget", Json(p.budget())},
                      {"status", StatusName(p.status())},
                      {"overhead", p.overhead()}});
  j["points"] = points;
  Json findings = Json::array();
  for (const auto& f : check.findings) findings.push_back(FuzzFindingToJson(f));
  j["findings"] = findings;
  if (args.json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "sweep:     " << check.points.size() << " budgets, baseline peak "
            << GroupedInt(check.baseline.peak) << " bytes, compute "
            << GroupedInt(check.baseline.compute) << " (cliffs: factor "
            << ShortestDouble(options.cliff_factor) << " within "
            << ShortestDouble(options.cliff_gap) << " of peak)\n";
  for (const auto& p : check.points) {
    std::cout << "  " << ShortestDouble(*p.record.config.ratio) << "\t" << IntToString(p.budget())
              << "\t" << StatusName(p.status());
    if (p.status() == Status::kOk) std::cout << "\t" << Fixed(p.overhead(), 3) << "x";
    std::cout << "\n";
  }
  if (check.findings.empty()) std::cout << "no findings\n";
  for (size_t i = 0; i < check.findings.size(); ++i) {
    const FuzzFinding& f = check.findings[i];
    std::cout << "finding " << i + 1 << ": " << f.Describe() << "\n  signature " << f.signature
              << " (id " << SignatureId(f.signature) << ")\n";
    if (f.spec)
      std::cout << "  dtrcheck reduce " << (args.out.empty() ? "TRACE" : args.out)
                << ShellWords(ReduceArguments(f)) << " -o reduced.log\n";
  }
  return 0;
}

CLI::App* RegisterFuzzDecode(CLI::App& app, FuzzDecodeOptions* args) {
  auto* cmd = app.add_subcommand("fuzz-decode",
                                 "decode a pathology_fuzzer input: its trace, sweep and findings");
  cmd->add_option("ARTIFACT", args->artifact, "a fuzzer input (crash artifact, corpus file, claim)")
      ->required();
  cmd->add_option("-o,--output", args->out, "write the decoded trace to this log");
  cmd->add_flag("--json", args->json, "print one JSON object (the case, the sweep, the findings)");
  cmd->add_flag("!--no-check", args->check, "only decode: no sweep, no findings");
  cmd->add_option("--cliff-factor", args->cliff_factor,
                  "as $DTRCHECK_FUZZ_CLIFF_FACTOR (default 2)")
      ->check(FiniteRange(1.0, 1e300));
  cmd->add_option("--cliff-delta", args->cliff_gap,
                  "cliffs between budgets at most this fraction of peak apart; as "
                  "$DTRCHECK_FUZZ_CLIFF_GAP (default 0.01)")
      ->check(FiniteRange(1e-12, 1.0));
  AddRenamedOption<double>(cmd, "--cliff-gap", "--cliff-delta", [args](double d) {
    args->cliff_gap = d;
  })->check(FiniteRange(1e-12, 1.0));
  return cmd;
}

}  // namespace

Action AddFuzzDecodeCommand(CLI::App& app) {
  auto args = std::make_shared<FuzzDecodeOptions>();
  return {RegisterFuzzDecode(app, args.get()), [args] { return RunFuzzDecode(*args); }};
}

}  // namespace dtrcheck
