// Archived counterexamples: corpus/<kind>/<id>/manifest.json and trace.log,
// filed by `dtrcheck archive add` (analysis/finding_manifest.h is the
// manifest's format).
//
// What a replay needs from the manifest: the property with its
// configuration and budgets, and the statuses and overheads seen when it was
// archived, to say how a pathology disappeared.
// Replays go through CheckTraceProperty and PropertyHoldsOnRecords, the
// reducer's own checks, so an archived finding means exactly what the
// reducer kept.
#ifndef DTRCHECK_ANALYSIS_ARCHIVED_FINDING_H_
#define DTRCHECK_ANALYSIS_ARCHIVED_FINDING_H_

#include <optional>
#include <string>
#include <vector>

#include "analysis/finding_manifest.h"
#include "analysis/reduce_property.h"
#include "sim/simulate.h"

namespace dtrcheck {

struct ArchivedFinding {
  std::string manifest, trace;  // paths
  std::string id, kind;
  std::string trace_sha256;           // as archived (a SHA-256: ReadFindingManifest checks it)
  PropertySpec spec;                  // budgets as archived (ratios of the trace's peak)
  std::vector<ArchivedRun> expected;  // lo (if any) then hi
};

// Throws std::invalid_argument naming the manifest and the field (an
// archived manifest has an id and a kind; its trace must resolve inside its
// directory, io/entry_path.h).
ArchivedFinding ReadArchivedFinding(const std::string& path);

struct ArchiveReplay {
  bool available = true;  // false: simrd is not installed (replays against simrd only)
  bool holds = false;
  std::vector<ArchivedRun> got;  // lo (if any) then hi
  std::string detail;            // the check's summary, or why it could not run
};

// "" when the trace's bytes are the archived ones; otherwise what changed
// ("<trace>: SHA-256 differs from the manifest's: expected X, found Y"). A
// replay of changed bytes would judge another trace than the one archived.
std::string CheckArchivedTraceIntegrity(const ArchivedFinding& f);

// Replays the finding in dtrcheck (on `g`, its trace already parsed, when
// the caller needs the Graph too).
ArchiveReplay ReplayInDtrcheck(const ArchivedFinding& f);
ArchiveReplay ReplayInDtrcheck(const ArchivedFinding& f, const Graph& g);
// Replays it in simrd (oracle/simrd_oracle.py): the property must hold on
// simrd's own records.
ArchiveReplay ReplayInSimrd(const ArchivedFinding& f);

// "inversion corpus/inversion/<id>: holds" or, when it does not, which run
// changed and how: expected vs got status, overhead and budget per run.
std::string DescribeReplay(const ArchivedFinding& f, const ArchiveReplay& r,
                           const std::string& who);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_ARCHIVED_FINDING_H_
