#include "analysis/scan.h"

#include <mutex>
#include <stdexcept>

#include "analysis/parallel_for.h"

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
  for (auto&& list : {FindInversions(pts), FindRegimeCliffs(pts, s.cliff_factor, result.cliff_gap),
                      FindOverheadRises(pts, s.rise_factor)})
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
        if (s.refine) {
          Int tolerance = s.tolerance > 0 ? s.tolerance
                                          : std::max<Int>(1, (f.high.budget - f.low.budget) / 128);
          double threshold = f.kind == FindingKind::kRegimeCliff ? s.cliff_factor : s.rise_factor;
          sf.refined = RefineFinding(graph, config, baseline, f, tolerance, threshold);
        }
        if (s.diagnose && f.kind == FindingKind::kInversion) {
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
