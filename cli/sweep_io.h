// The output side of `dtrcheck sweep`: formats, the file written, and the
// identity of a point used to resume and merge sweeps.
#ifndef DTRCHECK_CLI_SWEEP_IO_H_
#define DTRCHECK_CLI_SWEEP_IO_H_

#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/sweep.h"
#include "io/atomic_file.h"
#include "io/record.h"
#include "sim/parse.h"
#include "sim/simulate.h"

namespace dtrcheck {

enum class SweepFormat { kTable, kCsv, kJsonl };
// "table", "csv" or "jsonl"; throws CLI::ValidationError otherwise.
SweepFormat ParseSweepFormat(const std::string& name);

// table: ratio, budget, status, overhead (3 decimals, ok runs only: an oom
//        or thrashed run stopped early);
// csv:   the same and clock, remat_compute, evictions, distinct_evicted,
//        with the overhead of every run at full precision;
// jsonl: the run record (RecordToJson), one per line.
// With several heuristics, table and csv get a heuristic column first.
std::string SweepHeader(SweepFormat format, bool with_heuristic);
// With a `check_key` (SweepCheckKey), a jsonl row also carries
// "sweep_check" (see ReadResumeFile).
std::string SweepRow(SweepFormat format, const RunRecord& r, bool with_heuristic,
                     const std::string& check_key = "");

// What a resumed record is checked against besides its own fields: the
// trace's SHA-256 and the options that shape a record without appearing in
// it (parse options, baseline runtime).
std::string SweepCheckKey(const std::string& trace, const ParseOptions& parse,
                          const std::string& baseline_runtime);

struct ResumedRecord {
  long line;  // 1-based, in the resumed file
  RunRecord record;
};
// The records of a `sweep --format jsonl` file written with `check_key`.
// Each line's "sweep_check" must be the SHA-256 of the key and the record
// (RecordToJson, without the check): a record whose numbers were edited, or
// that another trace or other options produced, is refused. Throws
// std::invalid_argument "FILE:LINE: ..." naming the first bad line.
std::vector<ResumedRecord> ReadResumeFile(const std::string& path, const std::string& check_key);
// The sweep_check of each record in jsonl files, by PointIdentity (dumped).
std::map<std::string, std::string> SweepChecks(const std::vector<std::string>& paths);

// The fields of a record that say which point of which sweep it is
// (configuration, budget, baseline), as opposed to its outcome.
Json PointIdentity(const RunRecord& r);
// The identity a run of `config` at `spec` will have. Mirrors how Simulate
// fills the record: budget, remat limit, seed.
Json ExpectedIdentity(const RunConfig& config, const BudgetSpec& spec, const Baseline& baseline);

// Records of several sweep files in sweep order: by heuristic in the order
// of first appearance, then by budget, then ratio. Identical duplicates are
// dropped; differing records for one point throw std::invalid_argument, as
// do records of different runtimes, limits or baselines.
std::vector<RunRecord> MergeSweepRecords(const std::vector<std::string>& paths);

// Where a command's output goes: stdout, or FILE written atomically
// (io/atomic_file.h: a unique temporary beside FILE, renamed to FILE by
// Commit()), so that an input of the command (e.g. --resume FILE) can be
// the output too, a crash or a full disk never leaves a torn FILE, and two
// commands writing FILE never interleave.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // "" or "-": stdout
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  std::ostream& stream() { return file_ ? file_->stream() : std::cout; }
  // Flushes and renames; throws OutputError naming FILE on a write error.
  void Commit();
  // An interrupted command's output, renamed to PartialPath(FILE) instead:
  // never under FILE, where it would read as complete. Returns that name
  // ("" for stdout).
  std::string CommitPartial();

 private:
  std::unique_ptr<AtomicFile> file_;
};

// Where an interrupted sweep leaves what it finished: FILE.partial.
std::string PartialPath(const std::string& path);
// Throws std::invalid_argument if `path` is such a partial result: census,
// `sweep --merge` and `scan --records` read complete sweeps only (`sweep
// --resume` reads partial ones, to finish them).
void RefusePartialResult(const std::string& path);

}  // namespace dtrcheck

#endif  // DTRCHECK_CLI_SWEEP_IO_H_
