// The manifest of a reduced counterexample: one format for what
// `dtrcheck reduce -o OUT.log` writes beside its output (OUT.manifest.json)
// and what the archive keeps (corpus/<kind>/<id>/manifest.json, filed by
// `dtrcheck archive add`). Written and read here only; its configuration and
// records are io/record.h's.
//
// Fields, in this order (fuzz/README.md describes them for readers):
//   format         kManifestFormat
//   id, kind       the archive's (absent until filed; kind = property)
//   property       inversion | cliff | pinned-oom | overhead-rise
//   signature, description   the fuzzer's finding it came from, if any
//   summary, holds the property on the reduced trace, in dtrcheck
//   trace          the reduced trace, relative to the manifest's directory
//   trace_sha256
//   config         io/record.h ConfigToJson, without a budget
//   factor         cliff and overhead
//   budgets        {lo, hi}: {ratio (when given as a ratio), bytes}
//   expected       {lo, hi}: {status, overhead, budget} of dtrcheck's runs
//   dtrcheck       the records of those runs, each with its overhead
//   oom            pinned-oom: the diagnosis of the run at hi
//   bucket         the root-cause bucket (analysis/bucket.h: id, key,
//                  labels, failure, oom_site, family, features,
//                  trace_form), written by `dtrcheck archive add`; absent
//                  in entries filed before 2026-12-04
//   optimal        the minimum-compute schedule at each budget and the
//                  heuristic's regret (optimal/regret.h; written by
//                  `dtrcheck check-finding --optimal --record`), if computed
//   simrd_status   "confirmed", "not confirmed by simrd", or for a plugin's
//                  heuristic kReplayConfirmed (a manifest of
//                  a trace simrd runs differently says "simrd disagrees";
//                  the archive never holds one)
//   simrd          simrd's records and verdict (analysis/simrd_confirm.h),
//                  or why it was not asked
//   operators, instructions  {before, after} the reduction
//   reduction      tests, rounds, one_minimal, interrupted, seconds
//   before         the unreduced trace {trace, sha256} and the same check
//                  on it (absent in entries the campaign filed in format 1)
//   original, fuzzer   the fuzzer's case and input, when it came from one
//   commands       how to reproduce: decode, reduce, check
//   archive        corpus/<kind>/<id>
// Format 1 (the campaign's own manifests, before dtrcheck wrote them) had
// the same fields but holds and before, and "unavailable" for an
// unconfirmed simrd_status; it is still read.
#ifndef DTRCHECK_ANALYSIS_FINDING_MANIFEST_H_
#define DTRCHECK_ANALYSIS_FINDING_MANIFEST_H_

#include <string>
#include <vector>

#include "analysis/reduce_property.h"
#include "analysis/simrd_confirm.h"
#include "io/record.h"

namespace dtrcheck {

constexpr int kManifestFormat = 2;

extern const char kSimrdConfirmed[];     // "confirmed"
extern const char kSimrdNotConfirmed[];  // "not confirmed by simrd"
extern const char kSimrdDisagrees[];     // "simrd disagrees"
// A plugin's heuristic has no simrd oracle: the counterexample was confirmed
// by replaying the written trace in dtrcheck, and the manifest says so.
extern const char kReplayConfirmed[];

// A run as a manifest keeps it, to say how a pathology changed.
struct ArchivedRun {
  std::string status;  // "ok", "oom", "thrashed"
  double overhead = 0;
  Int budget = 0;
};

// A manifest as read (of format 1 or 2) and as written (format 2).
struct FindingManifest {
  std::string id, kind;                // empty until archived
  std::string signature, description;  // empty unless from the fuzzer
  PropertySpec spec;                   // property, config, factor, budgets
  std::string summary;
  bool holds = false;
  std::string trace;  // relative to the manifest's directory
  std::string trace_sha256;
  Json budgets;                       // as written: {lo, hi} with ratio and bytes
  std::vector<ArchivedRun> expected;  // lo (if any) then hi
  Json dtrcheck;                      // array of records with overhead
  Json oom;                           // null unless pinned-oom
  Json bucket;                        // null unless computed
  Json optimal;                       // null unless computed
  std::string simrd_status;
  Json simrd;
  Json operators, instructions, reduction;
  // Null when absent.
  Json before, original, fuzzer;
  Json commands;
  std::string archive;
};

// The property's check on a trace, as the manifest holds it: sets summary,
// holds, budgets, expected, dtrcheck and oom.
void SetCheck(FindingManifest* m, const PropertyCheck& check);
// The same fields as one object, for `before`.
Json CheckToJson(const PropertyCheck& check, const PropertySpec& spec);

// simrd_status for a confirmation.
std::string SimrdStatus(const SimrdConfirmation& c);

// A heuristic from a plugin has no simrd oracle: a finding about it is
// confirmed by dtrcheck's own replay of the trace (`holds`), and the
// manifest says so (kReplayConfirmed, and why simrd was not asked). Returns
// false, changing nothing, for simrd's own heuristics.
bool ConfirmPluginByReplay(bool holds, FindingManifest* m);

Json ManifestToJson(const FindingManifest& m);
// Throws FieldError naming the field; std::invalid_argument for an unknown
// format or property.
FindingManifest ManifestFromJson(const Json& j);

// Where `dtrcheck reduce -o OUT` writes the manifest: OUT.log ->
// OUT.manifest.json; other names get ".manifest.json" appended.
std::string ManifestPathFor(const std::string& reduced_trace);

// Reads PATH (io/json.h ReadJsonFile: a regular file, bounded). Throws
// std::invalid_argument "PATH: ..." (not JSON, a field missing or mistyped,
// a trace_sha256 that is not a SHA-256).
FindingManifest ReadFindingManifest(const std::string& path);
// The file a manifest's field names (its "trace", "fuzzer.input"), as a
// path: it must resolve inside the manifest's directory (io/entry_path.h),
// for a manifest is untrusted input. Throws std::invalid_argument
// "MANIFEST: field \"trace\": ... escapes the entry directory ...".
std::string ManifestFile(const std::string& manifest_path, const std::string& name,
                         const char* field);
// Writes PATH atomically (io/atomic_file.h). Throws OutputError.
void WriteFindingManifest(const FindingManifest& m, const std::string& path);

}  // namespace dtrcheck

#endif  // DTRCHECK_ANALYSIS_FINDING_MANIFEST_H_
