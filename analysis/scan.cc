#include "analysis/scan.h"

#include <mutex>
#include <stdexcept>

#include "analysis/allocator_pathology.h"
#include "analysis/parallel_for.h"
#include "sim/accepted_pairs.h"

namespace dtrcheck {

ScanResult RunScan(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                   const std::vector<BudgetSpec>& budgets, const ScanSettings& s) {
  SweepOptions so;
  so.jobs = s.jobs;
  so.cancel = s.cancel;
  if (s.on_progress)
    so.on_point = [&](const SweepPoint&, size_t done, size_t total) {
      s.on_progress("sweep", done, total);
    };
  SweepResult sweep = RunSweep(graph, config, baseline, budgets, so);
  if (sweep.cancelled) {
    // Findings of the finished points, nothing refined.
    ScanSettings quick = s;
    quick.refine = false;
    quick.diagnose = false;
    quick.cancel = nullptr;
    quick.on_progress = nullptr;
    ScanResult partial = AnalyzeSweep(graph, config, baseline, std::move(sweep.points), quick);
    partial.cancelled = true;
    return partial;
  }
  return AnalyzeSweep(graph, config, baseline, std::move(sweep.points), s);
}

ScanResult AnalyzeSweep(const Graph& graph, const RunConfig& config, const Baseline& baseline,
                        std::vector<SweepPoint> points, const ScanSettings& s) {
  ScanResult result;
  result.points = std::move(points);
  result.cliff_gap =
      s.cliff_bytes ? *s.cliff_bytes : GapFromFractionOfPeak(s.cliff_fraction, baseline.peak);

  const auto& pts = result.points;
  std::vector<Finding> inversions = FindInversions(pts);
  std::vector<Finding> cliffs = FindRegimeCliffs(pts, s.cliff_factor, result.cliff_gap);
  std::vector<Finding> allocator_only;
  // The same budgets under simrd's bytes: what only the allocator has. A
  // heuristic that reads addresses has no run in bytes; its findings stay
  // plain inversions and cliffs of the allocator's runs.
  if (config.memory.model != MemoryModel::kBytes && !pts.empty() &&
      !ReadsAddresses(config.heuristic)) {
    RunConfig bytes_config = config;
    bytes_config.memory = MemoryOptions{};
    std::vector<BudgetSpec> budgets;
    for (const SweepPoint& p : pts)
      budgets.push_back(p.record.config.ratio ? BudgetSpec::Ratio(*p.record.config.ratio)
                                              : BudgetSpec::Bytes(p.budget()));
    SweepOptions so;
    so.jobs = s.jobs;
    so.cancel = s.cancel;
    SweepResult bytes = RunSweep(graph, bytes_config, baseline, budgets, so);
    if (bytes.points.size() == pts.size()) {
      result.bytes_points = std::move(bytes.points);
      MarkAllocatorOnly(result.bytes_points, s.cliff_factor, &inversions);
      MarkAllocatorOnly(result.bytes_points, s.cliff_factor, &cliffs);
      allocator_only = FindFragmentationOoms(pts, result.bytes_points);
      for (const Finding& f : FindReservedPeakInversions(pts)) allocator_only.push_back(f);
    } else {
      result.cancelled = true;
    }
  }
  for (auto&& list : {inversions, cliffs, FindOverheadRises(pts, s.rise_factor), allocator_only})
    for (const Finding& f : list)
      result.findings.push_back(ScanFinding{f, std::nullopt, std::nullopt});

  std::mutex mu;
  size_t done = 0;
  const size_t n = result.findings.size();
  // On cancellation, what is refined so far is kept.
  auto cancelled = [&] { return s.cancel && s.cancel->load(); };
  ParallelFor(
      n, s.jobs,
      [&](size_t i) {
        ScanFinding& sf = result.findings[i];
        const Finding& f = sf.found;
        const bool refinable = f.kind != FindingKind::kFragmentationOom &&
                               f.kind != FindingKind::kReservedPeakInversion;
        if (s.refine && refinable) {
          Int tolerance = s.tolerance > 0 ? s.tolerance
                                          : std::max<Int>(1, (f.high.budget - f.low.budget) / 128);
          double threshold =
              f.kind == FindingKind::kRegimeCliff || f.kind == FindingKind::kAllocatorCliff
                  ? s.cliff_factor
                  : s.rise_factor;
          sf.refined = RefineFinding(graph, config, baseline, f, tolerance, threshold);
        }
        // The failed end: of an inversion, and the allocator's run of a
        // fragmentation OOM.
        if (s.diagnose &&
            (f.kind == FindingKind::kInversion || f.kind == FindingKind::kAllocatorInversion ||
             f.kind == FindingKind::kFragmentationOom)) {
          const FindingEnd& end = sf.refined ? sf.refined->finding.high : f.high;
          BudgetSpec spec =
              end.ratio ? BudgetSpec::Ratio(*end.ratio) : BudgetSpec::Bytes(end.budget);
          sf.failure = Diagnose(graph, WithBudget(config, spec), baseline);
        }
        if (s.on_progress) {
          std::lock_guard<std::mutex> lock(mu);
          s.on_progress("refine", ++done, n);
        }
      },
      cancelled);
  if (cancelled()) result.cancelled = true;
  return result;
}

}  // namespace dtrcheck
