#include "cli/scan_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "analysis/allocator_pathology.h"
#include "analysis/finding_json.h"
#include "analysis/format.h"
#include "cli/diagnosis_report.h"
#include "cli/provenance.h"
#include "cli/sweep_plot.h"
#include "io/atomic_file.h"

namespace dtrcheck {

namespace {

std::map<std::string, size_t> StatusCounts(const ScanResult& r) {
  std::map<std::string, size_t> counts;
  for (const auto& p : r.points) counts[StatusName(p.status())] += 1;
  return counts;
}

// "ratio 0.101 (1,016,179,144 B) ok 2.223x"; refined ends also give the
// ratio they correspond to, budget / peak.
std::string EndText(const FindingEnd& e, Int peak) {
  std::string s = e.ratio ? "ratio " + ShortestDouble(*e.ratio)
                          : "budget/peak " + Fixed(IntToDouble(e.budget) / IntToDouble(peak), 7);
  s += " (" + GroupedInt(e.budget) + " B) " + StatusName(e.status);
  if (e.status == Status::kOk) s += " " + Fixed(e.overhead, 3) + "x";
  return s;
}

std::string FailureText(const Diagnosis& d) {
  if (!d.oom)
    return std::string("the failed end is ") + StatusName(d.record.status) + " (not an oom)";
  const OomDetails& o = *d.oom;
  std::string s = d.PinnedFrontierOom() ? "pinned-frontier OOM" : "OOM (not pinned-frontier)";
  s += ": allocating " + GroupedInt(o.request) + " B for " + o.tensor_name + " (id " +
       std::to_string(o.tensor) + "), last started " + o.last_started_name + " (id " +
       std::to_string(o.last_started) + "); locked " + GroupedInt(o.locked_bytes) + " B in " +
       std::to_string(o.locked_storages) + " storages, pool " + std::to_string(o.pool_count) +
       " storages / " + GroupedInt(o.pool_bytes) + " B, depth " + std::to_string(o.depth);
  return s;
}

std::string Header(const ScanContext& ctx, const ScanResult& r) {
  std::string s = ctx.config.heuristic + " on " + ctx.config.runtime + ", " +
                  LimitText(ctx.config) + "; " + ctx.grid + ": " + std::to_string(r.points.size()) +
                  " budgets (";
  bool first = true;
  for (const auto& [k, v] : StatusCounts(r)) {
    s += (first ? "" : ", ") + k + " " + std::to_string(v);
    first = false;
  }
  s += ")";
  if (r.cancelled) s += " [INTERRUPTED: partial]";
  return s;
}

std::string CriteriaText(const ScanContext& ctx, const ScanResult& r) {
  return "cliff: overheads >= " + ShortestDouble(ctx.settings.cliff_factor) + "x apart within " +
         GroupedInt(r.cliff_gap) + " B (" +
         Fixed(IntToDouble(r.cliff_gap) / IntToDouble(ctx.baseline.peak) * 100, 3) +
         "% of peak); overhead rise: a bigger budget's overhead > " +
         ShortestDouble(ctx.settings.rise_factor) + "x a smaller one's";
}

// Under an allocator model: the smallest budget of the grid that runs (ok)
// under the allocator and under bytes, and the allocator's fragmentation
// at its own smallest ok budget (the feasibility floor).
struct MemorySummary {
  std::optional<size_t> floor, bytes_floor;  // indices into points
};

MemorySummary SummarizeMemory(const ScanResult& r) {
  MemorySummary m;
  for (size_t i = 0; i < r.points.size() && !m.floor; ++i)
    if (r.points[i].status() == Status::kOk) m.floor = i;
  for (size_t i = 0; i < r.bytes_points.size() && !m.bytes_floor; ++i)
    if (r.bytes_points[i].status() == Status::kOk) m.bytes_floor = i;
  return m;
}

std::string MemoryText(const ScanContext& ctx, const ScanResult& r) {
  if (ctx.config.memory.model == MemoryModel::kBytes) return "";
  const MemorySummary m = SummarizeMemory(r);
  const Int peak = ctx.baseline.peak;
  auto floor_text = [&](const std::vector<SweepPoint>& pts, std::optional<size_t> i) {
    return i ? EndText(FindingEnd{*i, pts[*i].record.config.ratio, pts[*i].budget(),
                                  pts[*i].status(), pts[*i].overhead()},
                       peak)
             : std::string("none in the grid");
  };
  std::string s = "memory " + MemoryModelName(ctx.config.memory.model) + ": smallest ok budget " +
                  floor_text(r.points, m.floor) + "; under bytes " +
                  floor_text(r.bytes_points, m.bytes_floor);
  if (m.floor && r.points[*m.floor].record.memory) {
    const MemoryRecord& f = *r.points[*m.floor].record.memory;
    s += "; at that floor: reserved peak " + GroupedInt(f.reserved_peak) + " B, allocated peak " +
         GroupedInt(f.allocated_peak) + " B, reserved - allocated at the peak " +
         GroupedInt(f.peak_reserved_minus_allocated) + " B, largest free block " +
         GroupedInt(f.peak_largest_free_block) + " B, " + std::to_string(f.evictions_bytes_fit) +
         " evictions where the bytes fit";
  }
  return s;
}

Json MemoryJson(const ScanContext& ctx, const ScanResult& r) {
  const MemorySummary m = SummarizeMemory(r);
  Json j;
  j["model"] = MemoryModelName(ctx.config.memory.model);
  if (ctx.config.memory.max_split_size_mb)
    j["max_split_size_mb"] = *ctx.config.memory.max_split_size_mb;
  j["floor_budget"] = m.floor ? Json(r.points[*m.floor].budget()) : Json(nullptr);
  j["bytes_floor_budget"] =
      m.bytes_floor ? Json(r.bytes_points[*m.bytes_floor].budget()) : Json(nullptr);
  if (m.floor && r.points[*m.floor].record.memory) {
    const MemoryRecord& f = *r.points[*m.floor].record.memory;
    j["floor_reserved_peak"] = f.reserved_peak;
    j["floor_allocated_peak"] = f.allocated_peak;
    j["floor_peak_reserved_minus_allocated"] = f.peak_reserved_minus_allocated;
    j["floor_peak_largest_free_block"] = f.peak_largest_free_block;
    j["floor_evictions_bytes_fit"] = f.evictions_bytes_fit;
  }
  return j;
}

}  // namespace

Json ScanToJson(const ScanContext& ctx, const ScanResult& r) {
  Json j;
  j["trace"] = ctx.trace;
  j["runtime"] = ctx.config.runtime;
  j["heuristic"] = ctx.config.heuristic;
  j["overhead_limit"] =
      ctx.config.overhead_limit ? Json(*ctx.config.overhead_limit) : Json(nullptr);
  j["remat_limit"] = ctx.config.remat_limit ? Json(*ctx.config.remat_limit) : Json(nullptr);
  j["baseline_peak"] = Json(ctx.baseline.peak);
  j["baseline_compute"] = Json(ctx.baseline.compute);
  j["grid"] = ctx.grid;
  j["points"] = r.points.size();
  Json counts;
  for (const auto& [k, v] : StatusCounts(r)) counts[k] = v;
  j["status_counts"] = counts;
  j["cliff_factor"] = ctx.settings.cliff_factor;
  j["cliff_gap_bytes"] = Json(r.cliff_gap);
  j["rise_factor"] = ctx.settings.rise_factor;
  j["cancelled"] = r.cancelled;
  if (ctx.config.memory.model != MemoryModel::kBytes) j["memory"] = MemoryJson(ctx, r);
  Json findings = Json::array();
  for (const auto& sf : r.findings) {
    Json f;
    f["kind"] = FindingKindName(sf.found.kind);
    f["factor"] = sf.found.factor;
    f["low"] = FindingEndToJson(sf.found.low);
    f["high"] = FindingEndToJson(sf.found.high);
    if (sf.refined) {
      Json rf;
      rf["low"] = FindingEndToJson(sf.refined->finding.low);
      rf["high"] = FindingEndToJson(sf.refined->finding.high);
      rf["factor"] = sf.refined->finding.factor;
      rf["runs"] = sf.refined->runs;
      rf["stop_reason"] = sf.refined->stop_reason;
      f["refined"] = rf;
    } else {
      f["refined"] = nullptr;
    }
    if (sf.failure) {
      Json d = DiagnosisToJson(*sf.failure);
      d.erase("record");
      d["status"] = StatusName(sf.failure->record.status);
      f["failure"] = d;
    } else {
      f["failure"] = nullptr;
    }
    findings.push_back(f);
  }
  j["findings"] = findings;
  return j;
}

std::string ScanText(const ScanContext& ctx, const ScanResult& r) {
  std::string s =
      "scan of " + ctx.trace + "\n  " + Header(ctx, r) + "\n  " + CriteriaText(ctx, r) + "\n";
  if (const std::string m = MemoryText(ctx, r); !m.empty()) s += "  " + m + "\n";
  if (r.findings.empty()) return s + "no findings\n";
  s += std::to_string(r.findings.size()) + " finding(s):\n";
  const Int peak = ctx.baseline.peak;
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const ScanFinding& sf = r.findings[i];
    s += "  " + std::to_string(i + 1) + ". " + FindingKindName(sf.found.kind) + ": " +
         EndText(sf.found.low, peak) + " -> " + EndText(sf.found.high, peak);
    if (sf.found.factor > 0) s += " (factor " + Fixed(sf.found.factor, 2) + ")";
    s += "\n";
    if (sf.refined)
      s += "     refined: " + EndText(sf.refined->finding.low, peak) + " -> " +
           EndText(sf.refined->finding.high, peak) + "; " + std::to_string(sf.refined->runs) +
           " runs, " + sf.refined->stop_reason + "\n";
    if (sf.failure) s += "     failure: " + FailureText(*sf.failure) + "\n";
  }
  return s;
}

std::string ReduceCommandFor(const ScanContext& ctx, const ScanResult& result, size_t i) {
  const ScanFinding& sf = result.findings.at(i);
  const size_t number = i + 1;
  // The refined ends are the tighter pair, when there are any.
  const Finding& f = sf.refined ? sf.refined->finding : sf.found;
  // The allocator's kinds are reduce properties only in part: a
  // fragmentation OOM has one budget (hi); an allocator-inversion whose
  // failed grid end is out of memory under the allocator and ok in bytes
  // is a fragmentation OOM there, which is what only the allocator has and
  // what the reduction keeps; an allocator-cliff is reduced as a cliff
  // under the allocator (bytes may show it too once reduced).
  std::string property = FindingKindName(f.kind);
  bool one_budget = f.kind == FindingKind::kFragmentationOom;
  FindingEnd hi = f.high;
  if (f.kind == FindingKind::kAllocatorInversion) {
    hi = sf.found.high;  // a grid point: bytes_points has its bytes run
    const bool fragmentation =
        hi.index < result.bytes_points.size() &&
        IsFragmentationOom(result.bytes_points[hi.index].status(), hi.status);
    if (!fragmentation)
      return "# an allocator-inversion whose failed end is no fragmentation OOM: no reduce "
             "property";
    property = "fragmentation-oom";
    one_budget = true;
  }
  if (f.kind == FindingKind::kAllocatorCliff) property = "cliff";
  if (f.kind == FindingKind::kReservedPeakInversion)
    return "# a reserved-peak-inversion: no reduce property";
  std::vector<std::string> a = {"dtrcheck", "reduce", ctx.trace, "--property", property};
  if (one_budget)
    a.insert(a.end(), {hi.ratio ? "--hi" : "--hi-bytes",
                       hi.ratio ? ShortestDouble(*hi.ratio) : IntToString(hi.budget)});
  else if (f.low.ratio && f.high.ratio)
    a.insert(a.end(),
             {"--lo", ShortestDouble(*f.low.ratio), "--hi", ShortestDouble(*f.high.ratio)});
  else
    a.insert(a.end(),
             {"--lo-bytes", IntToString(f.low.budget), "--hi-bytes", IntToString(f.high.budget)});
  if (f.kind == FindingKind::kRegimeCliff || f.kind == FindingKind::kAllocatorCliff)
    a.insert(a.end(), {"--cliff-factor", ShortestDouble(ctx.settings.cliff_factor)});
  if (f.kind == FindingKind::kOverheadRise)
    a.insert(a.end(), {"--rise-factor", ShortestDouble(ctx.settings.rise_factor)});
  const RunConfig& c = ctx.config;
  a.insert(a.end(), {"--runtime", c.runtime, "--heuristic", c.heuristic, "--baseline-runtime",
                     c.baseline_runtime});
  if (c.overhead_limit) a.insert(a.end(), {"--overhead-limit", ShortestDouble(*c.overhead_limit)});
  if (c.remat_limit) a.insert(a.end(), {"--remat-limit", IntToString(*c.remat_limit)});
  if (c.seed) a.insert(a.end(), {"--seed", IntToString(*c.seed)});
  if (c.memory.model != MemoryModel::kBytes)
    a.insert(a.end(), {"--memory", MemoryModelName(c.memory.model)});
  if (c.memory.max_split_size_mb)
    a.insert(a.end(), {"--max-split-size-mb", std::to_string(*c.memory.max_split_size_mb)});
  a.insert(a.end(), {"-o", "finding-" + std::to_string(number) + ".log"});
  std::string out;
  for (const auto& w : a) out.append(out.empty() ? "" : " ").append(ShellQuote(w));
  return out;
}

void WriteScanReport(const std::string& dir, const ScanContext& ctx, const ScanResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::invalid_argument(dir + ": cannot create the report directory: " + ec.message());
  // Each file whole or not at all (io/atomic_file.h): a full disk names the
  // file that could not be written and leaves none truncated.
  {
    AtomicFile out(dir + "/points.jsonl");
    for (const auto& p : r.points) out.stream() << RecordToJson(p.record).dump() << "\n";
    out.Commit();
  }
  WriteFileAtomically(dir + "/scan.json", ScanToJson(ctx, r).dump(1) + "\n");
  std::vector<RunRecord> records;
  for (const auto& p : r.points) records.push_back(p.record);
  std::vector<Finding> marks;
  for (const auto& sf : r.findings)
    if (sf.found.kind != FindingKind::kOverheadRise) marks.push_back(sf.found);
  std::string name = std::filesystem::path(ctx.trace).filename().string();
  // Titled by the scan's configuration: records read back by --records carry
  // the resolved remat limit, not the overhead limit the scan was given.
  RunRecord configured;
  configured.config = ctx.config;
  const std::string title =
      SweepPlotTitle(ctx.trace, records.empty() ? records : std::vector<RunRecord>{configured});
  WriteSweepPlot(dir + "/overhead.svg", records, marks, title);
  // The budgets around the findings, when they are a small part of the grid.
  bool zoom = false;
  if (!r.findings.empty()) {
    size_t lo = r.points.size(), hi = 0;
    for (const auto& sf : r.findings) {
      lo = std::min(lo, sf.found.low.index);
      hi = std::max(hi, sf.found.high.index);
    }
    lo = lo >= 3 ? lo - 3 : 0;
    hi = std::min(r.points.size() - 1, hi + 3);
    if (2 * (hi - lo + 1) < r.points.size()) {
      std::vector<RunRecord> part(records.begin() + lo, records.begin() + hi + 1);
      WriteSweepPlot(dir + "/overhead-zoom.svg", part, marks, title + " (around the findings)");
      zoom = true;
    }
  }
  if (!zoom) std::filesystem::remove(dir + "/overhead-zoom.svg", ec);  // from an earlier report
  {
    std::ostringstream out;  // written whole, as the other files
    const Int peak = ctx.baseline.peak;
    out << "# Scan of `" << name << "`\n\n"
        << Header(ctx, r) << ".\nBaseline peak " << GroupedInt(peak) << " B, compute "
        << GroupedInt(ctx.baseline.compute) << ".\n"
        << CriteriaText(ctx, r) << " (overhead rises are listed but not marked on the plot).\n\n"
        << (MemoryText(ctx, r).empty() ? "" : MemoryText(ctx, r) + ".\n\n")
        << "![overhead against budget](overhead.svg)\n\n"
        << (zoom ? "![around the findings](overhead-zoom.svg)\n\n" : "")
        << "Files: `points.jsonl` (one run record per budget), `scan.json` (findings).\n\n";
    if (r.findings.empty()) {
      out << "No findings.\n\n" << ProvenanceMarkdown({ctx.trace});
      WriteFileAtomically(dir + "/report.md", out.str());
      return;
    }
    out << "## Findings\n\n| # | kind | low | high | factor | refined low | refined high | note |\n"
        << "|---|---|---|---|---|---|---|---|\n";
    for (size_t i = 0; i < r.findings.size(); ++i) {
      const ScanFinding& sf = r.findings[i];
      out << "| " << i + 1 << " | " << FindingKindName(sf.found.kind) << " | "
          << EndText(sf.found.low, peak) << " | " << EndText(sf.found.high, peak) << " | "
          << (sf.found.factor > 0 ? Fixed(sf.found.factor, 2) : "") << " | "
          << (sf.refined ? EndText(sf.refined->finding.low, peak) : "") << " | "
          << (sf.refined ? EndText(sf.refined->finding.high, peak) : "") << " | "
          << (sf.refined ? std::to_string(sf.refined->runs) + " runs, " + sf.refined->stop_reason
                         : "")
          << (sf.failure ? (sf.refined ? "; " : "") + FailureText(*sf.failure) : "") << " |\n";
    }
    // How to shrink each finding to a minimal trace (dtrcheck reduce).
    out << "\n## Reduce a finding\n\n```sh\n";
    for (size_t i = 0; i < r.findings.size(); ++i)
      out << "# " << i + 1 << "\n" << ReduceCommandFor(ctx, r, i) << "\n";
    out << "```\n\n" << ProvenanceMarkdown({ctx.trace});
    WriteFileAtomically(dir + "/report.md", out.str());
  }
}

}  // namespace dtrcheck
