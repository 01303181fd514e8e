#include "properties/pathology_search.h"

#include "analysis/allocator_pathology.h"
#include "analysis/pathology.h"
#include "analysis/sweep.h"
#include "sim/accepted_pairs.h"
#include "sim/runtime.h"

namespace dtrcheck {

std::optional<PropertySpec> FindPathology(const Graph& graph, const PathologySearch& search) {
  Baseline baseline;
  try {
    baseline = RunBaseline(graph, search.config.baseline_runtime);
  } catch (const SimrdAssertion&) {
    return std::nullopt;  // simrd would crash: not a valid trace
  }
  SweepResult sweep = RunSweep(graph, search.config, baseline, RatioBudgets(search.ratios));
  const std::vector<SweepPoint>& points = sweep.points;
  for (const auto& p : points)
    if (p.status() == Status::kError) return std::nullopt;  // not a valid trace for simrd
  std::vector<Finding> findings;
  switch (search.property) {
    case TraceProperty::kInversion:
    case TraceProperty::kPinnedOom:
      findings = FindInversions(points);
      break;
    case TraceProperty::kCliff:
      findings = FindRegimeCliffs(points, search.factor,
                                  GapFromFractionOfPeak(search.cliff_gap, baseline.peak));
      break;
    case TraceProperty::kOverheadRise:
      if (baseline.compute == 0) return std::nullopt;
      findings = FindOverheadRises(points, search.factor);
      break;
    case TraceProperty::kFragmentationOom: {
      // An allocator's OOM where the bytes fit: needs the bytes run, which a
      // heuristic that reads addresses does not have (bytes refuses it).
      if (search.config.memory.model == MemoryModel::kBytes ||
          ReadsAddresses(search.config.heuristic))
        return std::nullopt;
      RunConfig bytes = search.config;
      bytes.memory = MemoryOptions{};
      findings = FindFragmentationOoms(
          points, RunSweep(graph, bytes, baseline, RatioBudgets(search.ratios)).points);
      break;
    }
  }
  for (const Finding& f : findings) {
    PropertySpec spec;
    spec.property = search.property;
    spec.config = search.config;
    spec.factor = search.factor;
    if (search.property != TraceProperty::kFragmentationOom)
      spec.lo = BudgetSpec::Ratio(*f.low.ratio);
    spec.hi = BudgetSpec::Ratio(*f.high.ratio);
    if (search.property == TraceProperty::kFragmentationOom) {
      const Diagnosis d = Diagnose(graph, WithBudget(search.config, spec.hi), baseline);
      if (!d.oom || !d.oom->BytesFit()) continue;  // the bytes failed, not the allocator
    }
    if (search.property == TraceProperty::kPinnedOom) {
      if (f.high.status != Status::kOom) continue;
      if (!Diagnose(graph, WithBudget(search.config, spec.hi), baseline).PinnedFrontierOom())
        continue;
    }
    return spec;
  }
  return std::nullopt;
}

}  // namespace dtrcheck
