// The JSON of run configurations and run records, written and read here and
// nowhere else:
//   configuration  the oracle's configuration object (oracle/simrd_oracle.py
//                  `batch` reads one per line; oracle/README.md): runtime,
//                  heuristic, baseline_runtime, ratio | budget,
//                  overhead_limit | remat_limit, seed, stats. In parity
//                  corpora, finding manifests and the oracle's input.
//   record         what `dtrcheck run --json` prints and the oracle prints
//                  from simrd (fields in oracle/README.md).
// and the list of record fields compared for parity. Fields are read with
// io/json_fields.h: errors name the field, what was expected and what was
// found.
#ifndef DTRCHECK_IO_RECORD_H_
#define DTRCHECK_IO_RECORD_H_

#include <stdexcept>
#include <string>
#include <vector>

#include "io/json_fields.h"
#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {

// The configuration in the oracle's keys, in this order: runtime,
// heuristic, baseline_runtime, ratio or budget, overhead_limit or
// remat_limit, seed when set, stats when true. The testing aids
// (perturb_eviction, region_rebuilds) are not part of it.
Json ConfigToJson(const RunConfig& config);

// Reads what ConfigToJson writes, and every configuration the oracle
// accepts: absent or null keys keep RunConfig's defaults; the oracle's
// output options (time, eviction_log, costs_at) are accepted and ignored.
// Throws FieldError for a mistyped value, an unknown key, or both of
// ratio/budget or of overhead_limit/remat_limit.
RunConfig ConfigFromJson(const Json& j);

Json RecordToJson(const RunRecord& record);

// Reads a record back: RecordToJson(RecordFromJson(j)) gives back j for
// every record dtrcheck or the oracle prints (the oracle's trace_sha256 and
// oracle fields are ignored). Throws FieldError naming the field.
RunRecord RecordFromJson(const Json& j);

// One record per non-empty line. Throws std::invalid_argument
// "FILE:LINE: ..." for a line that is not a record, or if the file cannot
// be read.
std::vector<RunRecord> ReadRecordsJsonl(const std::string& path);

// The fields compared for parity, in record order. heuristic_access_count is
// left out for the equivalence-class heuristics (QUIRKS.md, Q-EQCLASS).
std::vector<std::string> ParityFields(const std::string& heuristic);

// The names of the parity fields (and "memory", the allocator's) where a and b differ.
std::vector<std::string> DifferingFields(const Json& a, const Json& b,
                                         const std::string& heuristic);

// The parse options as the oracle's `serve` requests and the parity corpora
// carry them: {no_start, preallocate, strict_release}, each present (true)
// only where it departs from simrd's defaults.
Json ParseOptionsToJson(const ParseOptions& parse);
// Reads them back (absent keys: the defaults). Throws FieldError.
ParseOptions ParseOptionsFromJson(const Json& j);

// One difference between simrd's answer and dtrcheck's for one
// configuration: a parity field, or "refusal" when only one side refused.
struct AnswerDifference {
  std::string field;
  std::string simrd, dtrcheck;  // the values as JSON text, or "(absent)"
};

// True for a refusal: {"error": ...} without a "status" (simrd's answer to
// a pair it refuses, a bad configuration or a trace it cannot parse;
// dtrcheck's refusals are written the same way by whoever compares).
bool IsRefusal(const Json& answer);

// The one parity comparison of an answer from simrd with one from dtrcheck
// (records or refusals): empty when they agree, that is both refused (the
// messages may differ) or both records have equal DifferingFields. Used by
// `replay`, `diff` and the differential fuzzer (fuzz/lib/diff_fuzz.h).
std::vector<AnswerDifference> CompareAnswers(const Json& simrd, const Json& dtrcheck,
                                             const std::string& heuristic);

}  // namespace dtrcheck

#endif  // DTRCHECK_IO_RECORD_H_
