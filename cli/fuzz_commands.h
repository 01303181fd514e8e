// Subcommands for the fuzzers' findings (fuzz/README.md).
#ifndef DTRCHECK_CLI_FUZZ_COMMANDS_H_
#define DTRCHECK_CLI_FUZZ_COMMANDS_H_

#include <cstdint>
#include <string>

#include "cli/commands.h"

namespace dtrcheck {

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

// bucket MANIFEST... : the root-cause bucket of each reduced counterexample
// (analysis/bucket.h), one JSON object per line.
Action AddBucketCommand(CLI::App& app);

// fuzz-diff [--time S | --cases N] [--seed N] [--archive DIR] [-j N]:
// differential fuzzing against simrd (fuzz/lib/diff_fuzz.h); --replay DIR
// replays its archive.
Action AddFuzzDiffCommand(CLI::App& app);

// fuzz-optimal [--time S | --cases N] [--seed N] [--archive DIR] [-j N]:
// differential fuzzing of the optimum (optimal/optimum_fuzz.h); --replay
// DIR replays its archive (corpus/optimal-violation).
struct FuzzOptimalOptions {
  double seconds = 0;  // wall clock; 0 with no --cases: 60
  int64_t cases = -1;
  int64_t only_case = -1;
  uint64_t seed = 1;
  std::string archive = "corpus/optimal-violation";
  int jobs = 1;
  size_t max_operators = 150;
  int max_mutations = 3;
  double solve_seconds = 2;
  double reduce_seconds = 120;
  bool no_reduce = false;
  bool json = false;
  std::string plant;  // testing aid (PlantedDefects)
  std::string replay;
};
int RunFuzzOptimal(const FuzzOptimalOptions& options);
Action AddFuzzOptimalCommand(CLI::App& app);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_FUZZ_COMMANDS_H_
