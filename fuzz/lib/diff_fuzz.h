// The differential fuzzer against simrd (`dtrcheck fuzz-diff`,
// fuzz/README.md): each case (fuzz/lib/diff_case.h) runs in dtrcheck and in
// simrd (one persistent `simrd_oracle.py serve` process per thread,
// oracle/simrd_client.h OracleServer), the answers are compared by
// CompareAnswers (io/record.h, the comparison `replay` and `diff` use); a
// divergence is reduced with the reducer (reduce/reducer.h, property "the
// answers still differ, the same way") and archived as corpus/parity/<id>/,
// which `dtrcheck replay DIR/*/case.jsonl` replays.
#ifndef DTRCHECK_FUZZ_LIB_DIFF_FUZZ_H_
#define DTRCHECK_FUZZ_LIB_DIFF_FUZZ_H_

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/lib/diff_case.h"
#include "io/record.h"
#include "oracle/simrd_client.h"
#include "reduce/reducer.h"
#include "sim/graph.h"

namespace dtrcheck {

// dtrcheck's answers for one log and its parse options: a record per
// configuration, or a refusal {"error": ...} (a TraceError, a pair simrd
// refuses, a value a record cannot hold). The graph is built once
// (io/trace_graph.h) and each baseline runtime runs once.
class DtrcheckSide {
 public:
  DtrcheckSide(const TraceLog& log, const ParseOptions& parse);
  // `perturb_eviction` >= 0 injects a divergence (a testing aid: RunConfig).
  Json Answer(const RunConfig& config, int64_t perturb_eviction = -1);

 private:
  std::optional<Graph> graph_;
  std::string parse_error_;
  std::map<std::string, Json> baseline_errors_;
  std::map<std::string, Baseline> baselines_;
};

// One configuration of a case, run on both sides.
struct DiffOutcome {
  size_t config = 0;  // index into the case's configs
  Json simrd, dtrcheck;
  std::vector<AnswerDifference> differences;  // empty: identical
};

std::vector<DiffOutcome> RunDiffCase(OracleServer& simrd, const DiffCase& c,
                                     int64_t perturb_eviction = -1);

// How two answers differ, coarsely: "refusal" (one side refused), else
// "record". Reduction keeps it.
std::string DivergenceKind(const std::vector<AnswerDifference>& d);

// The QUIRKS.md id of a divergence that is a known, documented difference,
// or "": Q-SETORDER, both runs end in the same simrd assertion and only
// heuristic_access_count differs (the accesses counted before it depend on
// Python's set iteration order).
std::string KnownDivergence(const DiffOutcome& outcome);

struct ReducedDivergence {
  TraceLog log;         // the reduced trace (the original when it could not be reduced)
  DiffOutcome outcome;  // on the reduced trace
  ReduceResult reduction;
  double seconds = 0;
};

// Reduces `log` while the answers for `config` differ as they did (the
// same DivergenceKind). Stops after `max_seconds` or when `cancel` is set,
// with the smallest trace so far.
ReducedDivergence ReduceDivergence(OracleServer& simrd, const TraceLog& log,
                                   const ParseOptions& parse, const RunConfig& config,
                                   const DiffOutcome& found, double max_seconds,
                                   const std::atomic<bool>* cancel, int64_t perturb_eviction = -1);

// What an archive entry records beside the traces: who found it and how to
// reproduce it (filled by the command).
struct DiffProvenance {
  std::string dtrcheck_commit, simrd_commit, command, reproduce;
};

// Files the divergence as ARCHIVE/<id>/ (written in a temporary directory
// and renamed): trace.log (reduced), original.log (before reduction),
// case.jsonl (one `dtrcheck replay` line: trace_file, trace_sha256,
// parse, config, simrd's record) and manifest.json (id, case seed and
// index, generator, mutations, configuration, parse options, both records,
// the differences, reduction, commits, commands, trace SHA-256s). The id is
// the first 16 hex digits of the SHA-256 of the reduced trace, parse
// options and configuration. Returns the id; an entry already there is
// left as it is.
std::string ArchiveDivergence(const std::string& archive, const DiffCase& c,
                              const TraceLog& original, const ReducedDivergence& r,
                              const DiffProvenance& provenance);

// Replays one archive entry in dtrcheck: the differences between simrd's
// archived record and dtrcheck's answer now (empty once fixed). Throws
// std::invalid_argument for an entry that cannot be read.
std::vector<AnswerDifference> ReplayParityEntry(const std::string& entry_dir);

}  // namespace dtrcheck

#endif  // DTRCHECK_FUZZ_LIB_DIFF_FUZZ_H_
