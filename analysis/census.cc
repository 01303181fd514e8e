#include "analysis/census.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "analysis/format.h"

namespace dtrcheck {

namespace {

std::string LimitName(const RunRecord& r) {
  if (r.config.overhead_limit) return ShortestDouble(*r.config.overhead_limit) + "x";
  // Read back from jsonl, an overhead limit is the remat limit it gave:
  // baseline compute * (X - 1).
  if (r.remat_limit_float)
    return Fixed(1 + *r.remat_limit_float / IntToDouble(r.baseline.compute), 2) + "x";
  if (r.remat_limit_int) return IntToString(*r.remat_limit_int) + " B";
  return "none";
}

double Fraction(const SweepPoint& p) {
  return IntToDouble(p.budget()) / IntToDouble(p.record.baseline.peak);
}

// A cliff is two budgets at most the window apart: on a grid coarser than
// the window (the census grid steps 0.005, scan's window is 0.001 of peak)
// no two points could form one, and the census would report "no cliffs"
// whatever the curve. As `scan` does for its grid, the window is widened to
// the grid's step: the smallest gap between adjacent ratios.
double CliffWindowForGrid(const std::vector<SweepPoint>& points, double window) {
  double step = 0;
  for (size_t i = 1; i < points.size(); ++i) {
    const double gap = Fraction(points[i]) - Fraction(points[i - 1]);
    if (gap > 0 && (step == 0 || gap < step)) step = gap;
  }
  return std::max(window, step * 1.001);  // adjacent gaps differ by a floored byte
}

}  // namespace

const std::vector<double>& CensusRatios() {
  static const std::vector<double> ratios = {0.3, 0.4, 0.5, 0.7, 0.9};
  return ratios;
}

namespace {

// The point run at exactly `ratio` (a sweep's exact decimal, as its record
// keeps it), or nullptr.
const SweepPoint* AtRatio(const std::vector<SweepPoint>& points, double ratio) {
  for (const SweepPoint& p : points)
    if (p.record.config.ratio && *p.record.config.ratio == ratio) return &p;
  return nullptr;
}

std::string AtRatioCell(const SweepPoint* p) {
  if (!p) return "-";
  if (p->status() == Status::kOk) return Fixed(p->overhead(), 3);
  return StatusName(p->status());
}

}  // namespace

CensusRow CensusOfSweep(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                        std::vector<SweepPoint> points, int jobs) {
  CensusRow row;
  row.policy = config.heuristic;
  if (config.seed) row.policy += " seed " + IntToString(*config.seed);
  if (config.memory.model != MemoryModel::kBytes) {
    row.allocator = true;
    row.policy += " memory " + MemoryModelName(config.memory.model);
  }
  if (!points.empty()) row.limit = LimitName(points.front().record);
  row.points = points.size();
  double sum = 0, best = 0;
  std::optional<size_t> prev;  // the last ok point
  double prev_gap = 0;         // raw - running best there
  for (size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& p = points[i];
    if (p.status() == Status::kOom) ++row.oom;
    if (p.status() == Status::kThrashed) ++row.thrashed;
    if (p.status() != Status::kOk) continue;
    ++row.ok;
    const double o = p.overhead();
    sum += o;
    row.worst_overhead = std::max(row.worst_overhead, o);
    if (!row.smallest_feasible) {
      row.smallest_feasible = Fraction(p);
      row.smallest_feasible_bytes = p.budget();
      if (p.record.memory && p.budget() > 0)
        row.floor_fragmentation =
            static_cast<double>(p.record.memory->peak_reserved_minus_allocated) /
            IntToDouble(p.budget());
    }
    best = prev ? std::min(best, o) : o;
    const double gap = o - best;
    if (prev) row.hidden_cost += (Fraction(p) - Fraction(points[*prev])) * (gap + prev_gap) / 2;
    prev = i;
    prev_gap = gap;
  }
  if (row.ok) row.mean_overhead = sum / static_cast<double>(row.ok);
  for (double r : CensusRatios()) row.at_ratios.push_back(AtRatioCell(AtRatio(points, r)));
  ScanSettings settings;  // scan's defaults, diagnosing each inversion's failed end
  settings.jobs = jobs;
  settings.cliff_fraction = CliffWindowForGrid(points, settings.cliff_fraction);
  ScanResult scan = AnalyzeSweep(graph, config, baseline, std::move(points), settings);
  for (const ScanFinding& f : scan.findings) {
    switch (f.found.kind) {
      case FindingKind::kInversion:
        ++row.inversions;
        if (f.failure && f.failure->oom && f.failure->oom->PinnedFrontier()) ++row.pinned_frontier;
        break;
      case FindingKind::kRegimeCliff:
        ++row.cliffs;
        break;
      case FindingKind::kOverheadRise:
        ++row.rises;
        break;
      case FindingKind::kFragmentationOom:
        ++row.fragmentation_ooms;
        break;
      case FindingKind::kAllocatorInversion:
        ++row.allocator_inversions;
        break;
      case FindingKind::kAllocatorCliff:
        ++row.allocator_cliffs;
        break;
      case FindingKind::kReservedPeakInversion:
        ++row.reserved_peak_inversions;
        break;
    }
  }
  return row;
}

std::vector<CensusRow> CensusOfRecords(const Graph& graph, const std::string& trace_name,
                                       const std::vector<RunRecord>& records, int jobs) {
  std::vector<std::pair<std::string, std::vector<SweepPoint>>> groups;
  std::map<std::string, size_t> at;
  for (const RunRecord& r : records) {
    const std::string key =
        r.config.heuristic + "/" + (r.seed_used ? IntToString(*r.seed_used) : "");
    auto it = at.find(key);
    if (it == at.end()) {
      it = at.emplace(key, groups.size()).first;
      groups.push_back({key, {}});
    }
    auto& pts = groups[it->second].second;
    pts.push_back(SweepPoint{pts.size(), r});
  }
  std::vector<CensusRow> rows;
  for (auto& [key, pts] : groups) {
    std::stable_sort(pts.begin(), pts.end(), [](const SweepPoint& a, const SweepPoint& b) {
      return a.budget() < b.budget();
    });
    for (size_t i = 0; i < pts.size(); ++i) pts[i].index = i;
    RunConfig config = pts.front().record.config;
    config.budget.reset();
    config.ratio.reset();
    CensusRow row = CensusOfSweep(graph, config, pts.front().record.baseline, pts, jobs);
    row.trace = trace_name;
    rows.push_back(row);
  }
  return rows;
}

std::string CensusTraceName(const std::string& trace_path) {
  const std::string stem = std::filesystem::path(trace_path).stem().string();
  return stem.substr(0, stem.find('-'));
}

std::vector<CensusRow> CensusTotals(const std::vector<CensusRow>& rows) {
  std::vector<CensusRow> out;
  std::map<std::pair<std::string, std::string>, size_t> at;
  std::vector<double> sums;
  for (const CensusRow& r : rows) {
    auto key = std::make_pair(r.policy, r.limit);
    auto it = at.find(key);
    if (it == at.end()) {
      it = at.emplace(key, out.size()).first;
      CensusRow t;
      t.policy = r.policy;
      t.trace = "all";
      t.limit = r.limit;
      out.push_back(t);
      sums.push_back(0);
    }
    CensusRow& t = out[it->second];
    t.points += r.points;
    t.ok += r.ok;
    t.oom += r.oom;
    t.thrashed += r.thrashed;
    t.inversions += r.inversions;
    t.cliffs += r.cliffs;
    t.rises += r.rises;
    t.pinned_frontier += r.pinned_frontier;
    t.allocator = t.allocator || r.allocator;
    t.fragmentation_ooms += r.fragmentation_ooms;
    t.allocator_inversions += r.allocator_inversions;
    t.allocator_cliffs += r.allocator_cliffs;
    t.reserved_peak_inversions += r.reserved_peak_inversions;
    t.worst_overhead = std::max(t.worst_overhead, r.worst_overhead);
    t.hidden_cost += r.hidden_cost;
    sums[it->second] += r.mean_overhead * static_cast<double>(r.ok);
  }
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].ok) out[i].mean_overhead = sums[i] / static_cast<double>(out[i].ok);
  return out;
}

namespace {

std::vector<std::string> Cells(const CensusRow& r, bool allocator) {
  std::vector<std::string> cells = {
      r.policy,
      r.trace,
      r.limit,
      std::to_string(r.points),
      std::to_string(r.ok),
      std::to_string(r.oom),
      std::to_string(r.thrashed),
      std::to_string(r.inversions),
      std::to_string(r.cliffs),
      std::to_string(r.rises),
      std::to_string(r.pinned_frontier),
      r.smallest_feasible ? Fixed(*r.smallest_feasible, 3) : "-",
      r.smallest_feasible_bytes ? IntToString(*r.smallest_feasible_bytes) : "-",
      r.ok ? Fixed(r.mean_overhead, 3) : "-",
      r.ok ? Fixed(r.worst_overhead, 3) : "-",
      Fixed(r.hidden_cost, 4)};
  for (size_t i = 0; i < CensusRatios().size(); ++i)
    cells.push_back(i < r.at_ratios.size() ? r.at_ratios[i] : "-");
  if (allocator) {
    for (size_t n : {r.fragmentation_ooms, r.allocator_inversions, r.allocator_cliffs,
                     r.reserved_peak_inversions})
      cells.push_back(r.allocator ? std::to_string(n) : "-");
    cells.push_back(r.floor_fragmentation ? Fixed(*r.floor_fragmentation, 4) : "-");
  }
  return cells;
}

const std::vector<std::string> kColumns = {"policy",
                                           "trace",
                                           "limit",
                                           "points",
                                           "ok",
                                           "oom",
                                           "thrashed",
                                           "inversions",
                                           "cliffs",
                                           "overhead_rises",
                                           "pinned_frontier_ooms",
                                           "smallest_feasible",
                                           "smallest_feasible_bytes",
                                           "mean_overhead",
                                           "worst_overhead",
                                           "hidden_cost"};
const std::vector<std::string> kAllocatorColumns = {"fragmentation_ooms", "allocator_inversions",
                                                    "allocator_cliffs", "reserved_peak_inversions",
                                                    "floor_fragmentation"};

bool AnyAllocator(const std::vector<CensusRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const CensusRow& r) { return r.allocator; });
}

std::vector<std::string> Columns(bool allocator) {
  std::vector<std::string> c = kColumns;
  for (double r : CensusRatios()) c.push_back("overhead_at_" + ShortestDouble(r));
  if (allocator) c.insert(c.end(), kAllocatorColumns.begin(), kAllocatorColumns.end());
  return c;
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

}  // namespace

std::string CensusMarkdown(const std::vector<CensusRow>& rows) {
  std::ostringstream s;
  const bool allocator = AnyAllocator(rows);
  const std::vector<std::string> columns = Columns(allocator);
  s << "| " << Join(columns, " | ") << " |\n|"
    << Join(std::vector<std::string>(columns.size(), "---"), "|") << "|\n";
  for (const CensusRow& r : rows) s << "| " << Join(Cells(r, allocator), " | ") << " |\n";
  return s.str();
}

std::string CensusCsv(const std::vector<CensusRow>& rows) {
  std::ostringstream s;
  const bool allocator = AnyAllocator(rows);
  s << Join(Columns(allocator), ",") << "\n";
  for (const CensusRow& r : rows) s << Join(Cells(r, allocator), ",") << "\n";
  return s.str();
}

}  // namespace dtrcheck
