// Every subcommand of the dtrcheck tool, in the order of `dtrcheck --help`.
// Each lives in cli/<name>_command.cc as an options struct `XOptions`, a
// `RegisterX` that declares its options on the CLI11 app and a
// `int RunX(const XOptions&)` that does the work (cli/README.md); the
// `AddXCommand` declared here joins them into the Action main runs.
#ifndef DTRCHECK_CLI_COMMANDS_H_
#define DTRCHECK_CLI_COMMANDS_H_

#include <functional>

#include <CLI/CLI.hpp>

namespace dtrcheck {

// Exit codes: 0 success, 1 the check failed (e.g. a divergence), 2 bad input.
constexpr int kExitBadInput = 2;

// A registered subcommand and what it does once the command line is parsed.
// Run functions may throw TraceError, std::invalid_argument or
// CLI::ValidationError; main turns them into a message and exit code 2.
struct Action {
  CLI::App* command;
  std::function<int()> run;
};

// run TRACE --budget B|--ratio R ...: one simulation, printed as a record.
Action AddRunCommand(CLI::App& app);
// replay CASES: runs a file of configurations, one record per line.
Action AddReplayCommand(CLI::App& app);
// diff TRACE ...: simrd and dtrcheck on one configuration, where they diverge.
Action AddDiffCommand(CLI::App& app);
// trace-path NAME: the absolute path of a verified trace; exit 2 (listing the
// names) for an unknown one, or when it is missing or its SHA-256 is wrong.
Action AddTracePathCommand(CLI::App& app);
// traces: name, path and check of every public trace; exit 1 unless all verify.
Action AddTracesCommand(CLI::App& app);
// sweep TRACE ... -o FILE: records over a budget grid (cli/sweep_command.cc).
Action AddSweepCommand(CLI::App& app);
// gen --shape S --seed N ... -o FILE: a synthetic trace.
Action AddGenCommand(CLI::App& app);
// reduce TRACE --property P ... -o OUT.log: a smaller trace that keeps it.
Action AddReduceCommand(CLI::App& app);
// diagnose TRACE ...: one run, and why an out-of-memory run failed.
Action AddDiagnoseCommand(CLI::App& app);
// compare TRACE --heuristics A,B: two policies over the grid.
Action AddCompareCommand(CLI::App& app);
// scan TRACE ...: the pathologies of a sweep, as a report.
Action AddScanCommand(CLI::App& app);
// reproduce NAME: a published finding, re-checked.
Action AddReproduceCommand(CLI::App& app);
// fuzz-decode ARTIFACT [-o trace.log] [--json]: what a pathology_fuzzer
// input decodes to (fuzz/lib/fuzz_case.h), its sweep and its findings, each
// with the `dtrcheck reduce` arguments that shrink it.
Action AddFuzzDecodeCommand(CLI::App& app);
// check-finding MANIFEST... [--simrd]: an archived counterexample
// (corpus/<kind>/<id>/manifest.json) still shows its pathology in dtrcheck,
// or, with --simrd, in simrd (exit 77 when simrd is absent).
Action AddCheckFindingCommand(CLI::App& app);
// archive add REDUCED [--archive DIR] [--id ID] [--fuzzer-input FILE] ...:
// re-checks a reduced counterexample (dtrcheck's records, its SHA-256,
// simrd when installed) and files it atomically as DIR/<kind>/<id>/.
Action AddArchiveCommand(CLI::App& app);
// census TRACE=RECORDS...: counts of each pathology over sweeps.
Action AddCensusCommand(CLI::App& app);
// optimal TRACE ...: the minimum compute under a budget, beside the heuristic.
Action AddOptimalCommand(CLI::App& app);
// fuzz-diff [--time S | --cases N] [--seed N] [--archive DIR] [-j N]:
// differential fuzzing against simrd (fuzz/lib/diff_fuzz.h); --replay DIR
// replays its archive.
Action AddFuzzDiffCommand(CLI::App& app);

// fuzz-optimal [--time S | --cases N] [--seed N] [--archive DIR] [-j N]:
// differential fuzzing of the optimum (optimal/optimum_fuzz.h); --replay
// DIR replays its archive (corpus/optimal-violation).
Action AddFuzzOptimalCommand(CLI::App& app);
// bucket MANIFEST... : the root-cause bucket of each reduced counterexample
// (analysis/bucket.h), one JSON object per line.
Action AddBucketCommand(CLI::App& app);
// kinds [--json]: the pathology kinds, the one list the campaign reads.
Action AddKindsCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_COMMANDS_H_
