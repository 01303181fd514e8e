// Subcommands for the fuzzers' findings (fuzz/README.md).
#ifndef DTRCHECK_CLI_FUZZ_COMMANDS_H_
#define DTRCHECK_CLI_FUZZ_COMMANDS_H_

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

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_FUZZ_COMMANDS_H_
