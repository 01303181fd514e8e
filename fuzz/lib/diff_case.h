// The differential fuzzer's cases (`dtrcheck fuzz-diff`, fuzz/README.md): a
// synthetic training step from one of the generators
// (traces/synthetic/generators.h), changed by mutations the generators never
// make, with parse options and several configurations to run on it in
// dtrcheck and in simrd.
//
// A case is a pure function of (campaign seed, case index), drawn with the
// generators' platform-independent GenRng, so a campaign is the same on any
// machine and with any number of threads, and one case is reproduced alone
// with `fuzz-diff --seed S --case I`.
#ifndef DTRCHECK_FUZZ_LIB_DIFF_CASE_H_
#define DTRCHECK_FUZZ_LIB_DIFF_CASE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "io/record.h"
#include "io/trace_log.h"
#include "sim/parse.h"
#include "sim/simulate.h"
#include "traces/synthetic/generators.h"
#include "traces/synthetic/rng.h"

namespace dtrcheck {

struct DiffCaseOptions {
  size_t max_operators = 200;  // generated traces are shrunk (fewer layers) to at most this
  int configs = 4;             // configurations per trace
  int max_mutations = 3;       // 0..max_mutations mutations per trace
};

struct DiffCase {
  uint64_t seed = 0;  // the campaign seed
  uint64_t index = 0;
  GeneratorParams generator;
  std::vector<std::string> mutations;  // in the order applied, e.g. "alias-chain"
  TraceLog log;
  ParseOptions parse;
  std::vector<RunConfig> configs;
};

// The mutations the fuzzer knows, by name (the keys of coverage reports):
//   alias-chain      views of views (CALLs with ALIAS 0) of a bound name
//   multi-mutate     a MUTATE of 2..4 names, some of them mutated
//   multi-output     a CALL of 1..3 names with 2..4 results, some aliasing an argument
//   copy             COPY of a bound name to a new one
//   copy-from        COPY_FROM between two bound names
//   release-late     a RELEASE moved later
//   release-early    a RELEASE moved earlier (where the name is no longer used)
//   release-shuffle  a run of consecutive RELEASEs in another order
//   release-all      every name still bound released at the end, in random order
//   zero-cost        a CALL's TIME and a result's MEMORY set to 0
//   undefined-release  a RELEASE of a name never bound (simrd ignores it
//                      unless --strict-release)
//   no-start         the START annotation removed (simrd refuses it unless
//                    --no-start)
//   wide-values      times and sizes up to 2^62, byte budgets and remat
//                    limits up to 2^72: sums past 2^64, products past 2^128
//                    (one case in eight, from a stream of its own)
// All but the last two keep the log valid (reduce/trace_edits.h
// CheckBindings); a mutation that would not is skipped.
const std::vector<std::string>& DiffMutationNames();

DiffCase MakeDiffCase(uint64_t seed, uint64_t index, const DiffCaseOptions& options = {});

// The instruction kinds of a log present in it ("CALL", "MUTATE", "ALIAS"
// for a result with ALIAS != -1, "MEMORY", ...), for coverage reports.
std::vector<std::string> InstructionKinds(const TraceLog& log);

// The command-line options of `dtrcheck run/diff` for the parse options and
// the configuration, e.g. "--runtime RuntimeV2 --heuristic LRU --budget 1234".
std::string RunArguments(const ParseOptions& parse, const RunConfig& config);

}  // namespace dtrcheck

#endif  // DTRCHECK_FUZZ_LIB_DIFF_CASE_H_
