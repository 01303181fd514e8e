#include "analysis/refine.h"

#include <algorithm>
#include <stdexcept>

#include "analysis/sweep.h"

namespace dtrcheck {

namespace {

enum class Side { kLow, kHigh, kNeither };

bool Failed(Status s) { return s == Status::kOom || s == Status::kThrashed; }

bool IsCliff(double a, double b, double factor) {
  return std::max(a, b) >= factor * std::min(a, b);
}

Side Classify(FindingKind kind, const RunRecord& low, const RunRecord& mid, const RunRecord& high,
              double threshold) {
  switch (kind) {
    case FindingKind::kInversion:
    case FindingKind::kAllocatorInversion:
      if (mid.status == Status::kOk) return Side::kLow;
      if (Failed(mid.status)) return Side::kHigh;
      return Side::kNeither;
    case FindingKind::kRegimeCliff:
    case FindingKind::kAllocatorCliff:
      if (mid.status != Status::kOk) return Side::kNeither;
      if (IsCliff(low.Overhead(), mid.Overhead(), threshold)) return Side::kHigh;
      if (IsCliff(mid.Overhead(), high.Overhead(), threshold)) return Side::kLow;
      return Side::kNeither;
    case FindingKind::kOverheadRise:
      if (mid.status != Status::kOk) return Side::kNeither;
      if (mid.Overhead() > threshold * low.Overhead()) return Side::kHigh;
      if (high.Overhead() > threshold * mid.Overhead()) return Side::kLow;
      return Side::kNeither;
    case FindingKind::kFragmentationOom:
    case FindingKind::kReservedPeakInversion:
      return Side::kNeither;  // not refined (Refinable)
  }
  return Side::kNeither;
}

FindingEnd EndOf(const RunRecord& r, size_t index) {
  return FindingEnd{index, r.config.ratio, r.budget, r.status, r.Overhead()};
}

RunRecord RunAt(const Graph& graph, const RunConfig& base, const Baseline& baseline,
                const FindingEnd& e) {
  BudgetSpec spec = e.ratio ? BudgetSpec::Ratio(*e.ratio) : BudgetSpec::Bytes(e.budget);
  return Simulate(graph, WithBudget(base, spec), baseline);
}

}  // namespace

RefineResult RefineFinding(const Graph& graph, const RunConfig& base, const Baseline& baseline,
                           const Finding& finding, Int tolerance, double threshold) {
  if (tolerance < 1) throw std::invalid_argument("the refinement tolerance is at least 1 byte");
  RefineResult r;
  r.finding = finding;
  r.low = RunAt(graph, base, baseline, finding.low);
  r.high = RunAt(graph, base, baseline, finding.high);
  r.runs = 2;
  r.stop_reason = "converged";
  while (r.high.budget - r.low.budget > tolerance) {
    Int mid_budget = r.low.budget + (r.high.budget - r.low.budget) / 2;
    RunRecord mid = Simulate(graph, WithBudget(base, BudgetSpec::Bytes(mid_budget)), baseline);
    ++r.runs;
    Side side = Classify(finding.kind, r.low, mid, r.high, threshold);
    if (side == Side::kLow) {
      r.low = std::move(mid);
    } else if (side == Side::kHigh) {
      r.high = std::move(mid);
    } else {
      r.stop_reason = mid.status == Status::kOk
                          ? "intermediate overhead at budget " + IntToString(mid_budget)
                          : std::string("midpoint ") + StatusName(mid.status) + " at budget " +
                                IntToString(mid_budget);
      break;
    }
  }
  r.finding.low = EndOf(r.low, finding.low.index);
  r.finding.high = EndOf(r.high, finding.high.index);
  if (finding.kind != FindingKind::kInversion && finding.kind != FindingKind::kAllocatorInversion) {
    double a = r.finding.low.overhead, b = r.finding.high.overhead;
    r.finding.factor = std::min(a, b) > 0 ? std::max(a, b) / std::min(a, b) : finding.factor;
  }
  return r;
}

}  // namespace dtrcheck
