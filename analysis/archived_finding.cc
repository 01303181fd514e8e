#include "analysis/archived_finding.h"

#include <filesystem>
#include <stdexcept>

#include "analysis/format.h"
#include "analysis/simrd_confirm.h"
#include "io/record.h"
#include "oracle/simrd_client.h"
#include "sim/parse.h"
#include "traces/locate.h"

namespace dtrcheck {

namespace {

namespace fs = std::filesystem;

ArchivedRun RunOf(const RunRecord& r) {
  return ArchivedRun{StatusName(r.status), r.Overhead(), r.budget};
}

std::string DescribeRun(const ArchivedRun& r) {
  // A reduced trace may have no compute left (every TIME 0): no overhead.
  std::string overhead;
  if (r.status == "ok") overhead = r.overhead > 0 ? Fixed(r.overhead, 3) + "x" : "(no compute)";
  std::string s = r.status;
  if (!overhead.empty()) s.append(" ").append(overhead);  // (appends: GCC 12 -Wrestrict)
  return s.append(" at ").append(IntToString(r.budget));
}

std::string BudgetText(const BudgetSpec& b) {
  return b.ratio ? "ratio " + ShortestDouble(*b.ratio) : IntToString(b.bytes) + " bytes";
}

}  // namespace

ArchivedFinding ReadArchivedFinding(const std::string& path) {
  // An entry's directory names its manifest.
  const std::string manifest_path =
      fs::is_directory(path) ? (fs::path(path) / "manifest.json").string() : path;
  FindingManifest m = ReadFindingManifest(manifest_path);
  if (m.id.empty() || m.kind.empty())
    throw std::invalid_argument(manifest_path + ": missing field \"" +
                                (m.id.empty() ? "id" : "kind") + "\" (not an archived manifest)");
  ArchivedFinding f;
  f.manifest = manifest_path;
  f.trace = ManifestFile(manifest_path, m.trace, "trace");
  f.id = m.id;
  f.kind = m.kind;
  f.trace_sha256 = m.trace_sha256;
  f.spec = m.spec;
  f.expected = m.expected;
  return f;
}

std::string CheckArchivedTraceIntegrity(const ArchivedFinding& f) {
  // An empty digest was refused when the manifest was read.
  const std::string actual = Sha256OfFile(f.trace);
  if (actual == f.trace_sha256) return "";
  return f.trace + ": SHA-256 differs from the manifest's trace_sha256: expected " +
         f.trace_sha256 + ", found " + actual + " (the archived trace was changed)";
}

ArchiveReplay ReplayInDtrcheck(const ArchivedFinding& f) {
  return ReplayInDtrcheck(f, ParseTraceFile(f.trace));
}

ArchiveReplay ReplayInDtrcheck(const ArchivedFinding& f, const Graph& g) {
  ArchiveReplay out;
  PropertyCheck check = CheckTraceProperty(g, f.spec);
  out.holds = check.holds;
  out.detail = check.summary;
  for (const auto& r : check.runs) out.got.push_back(RunOf(r));
  return out;
}

ArchiveReplay ReplayInSimrd(const ArchivedFinding& f) {
  ArchiveReplay out;
  if (!FindSimrd()) {
    out.available = false;
    out.detail = kSimrdNotFound;
    return out;
  }
  // Not skipped silently: check-finding --simrd exits 77 with the reason.
  if (std::optional<std::string> why = SimrdCannotJudge(f.spec)) {
    out.available = false;
    out.detail = *why;
    return out;
  }
  std::vector<RunRecord> records;
  try {
    records = SimrdRecords(f.trace, f.spec);
  } catch (const SimrdUnavailable& e) {
    out.available = false;
    out.detail = e.what();
    return out;
  } catch (const std::exception& e) {
    out.detail = e.what();
    return out;
  }
  for (const auto& r : records) out.got.push_back(RunOf(r));
  out.holds = PropertyHoldsOnRecords(f.spec, records);
  return out;
}

std::string DescribeReplay(const ArchivedFinding& f, const ArchiveReplay& r,
                           const std::string& who) {
  std::string s = f.kind + " " + fs::path(f.manifest).parent_path().string() + ": ";
  if (!r.available) return s + "not replayed in " + who + ": " + r.detail;
  s += r.holds ? "still holds in " + who : "GONE in " + who + " (" + r.detail + ")";
  std::vector<std::string> names;
  if (f.spec.lo) names.push_back("lo (" + BudgetText(*f.spec.lo) + ")");
  // A fragmentation OOM's runs: hi under bytes (simrd's only), then under
  // the allocator.
  if (f.spec.property == TraceProperty::kFragmentationOom)
    names.push_back("hi (" + BudgetText(f.spec.hi) + ") in bytes");
  names.push_back("hi (" + BudgetText(f.spec.hi) + ")" +
                  (f.spec.config.memory.model == MemoryModel::kBytes
                       ? ""
                       : " under " + MemoryModelName(f.spec.config.memory.model)));
  for (size_t i = 0; i < names.size(); ++i) {
    std::string expected = i < f.expected.size() ? DescribeRun(f.expected[i]) : "?";
    std::string got = i < r.got.size() ? DescribeRun(r.got[i]) : "no run";
    s += "\n  " + names[i] + ": expected " + expected + ", got " + got;
  }
  return s;
}

}  // namespace dtrcheck
