#include "analysis/reduce_property.h"

#include <stdexcept>

#include "analysis/allocator_pathology.h"
#include "analysis/format.h"
#include "sim/runtime.h"

namespace dtrcheck {

namespace {

std::string Describe(const RunRecord& r) {
  std::string s = std::string(StatusName(r.status)) + " at " + IntToString(r.budget);
  if (r.config.ratio) s += " (ratio " + ShortestDouble(*r.config.ratio) + ")";
  if (r.status == Status::kOk) s += " overhead " + Fixed(r.Overhead(), 3) + "x";
  return s;
}

}  // namespace

const std::vector<std::string>& TracePropertyNames() {
  static const std::vector<std::string> names = {"inversion", "cliff", "pinned-oom",
                                                 "overhead-rise", "fragmentation-oom"};
  return names;
}

TraceProperty TracePropertyFromName(const std::string& name) {
  const auto& names = TracePropertyNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<TraceProperty>(i);
  std::string valid;
  for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown property \"" + name + "\"; valid: " + valid);
}

const char* TracePropertyName(TraceProperty p) {
  return TracePropertyNames()[static_cast<size_t>(p)].c_str();
}

void ValidatePropertySpec(const PropertySpec& spec) {
  const bool fragmentation = spec.property == TraceProperty::kFragmentationOom;
  if (fragmentation && spec.config.memory.model == MemoryModel::kBytes)
    throw std::invalid_argument("fragmentation-oom needs an allocator model (--memory)");
  if (fragmentation && spec.lo)
    throw std::invalid_argument("fragmentation-oom has one budget (hi)");
  if (!spec.lo && spec.property != TraceProperty::kPinnedOom && !fragmentation)
    throw std::invalid_argument(std::string(TracePropertyName(spec.property)) +
                                " needs two budgets (lo and hi)");
  if (spec.lo && spec.lo->ratio.has_value() != spec.hi.ratio.has_value())
    throw std::invalid_argument("lo and hi must both be ratios or both be bytes");
  if (!(spec.factor >= 1.0)) throw std::invalid_argument("the factor must be >= 1");
  if (spec.lo && spec.lo->ratio && !(*spec.lo->ratio < *spec.hi.ratio))
    throw std::invalid_argument("lo must be below hi");
  if (spec.lo && !spec.lo->ratio && !(spec.lo->bytes < spec.hi.bytes))
    throw std::invalid_argument("lo must be below hi");
  if (spec.failure && spec.property != TraceProperty::kInversion)
    throw std::invalid_argument("a failure status belongs to the inversion property only");
  if (spec.failure && *spec.failure != Status::kOom && *spec.failure != Status::kThrashed)
    throw std::invalid_argument("an inversion fails with oom or thrashed");
}

PropertyCheck CheckTraceProperty(const Graph& graph, const PropertySpec& spec) {
  PropertyCheck check;
  try {
    check.baseline = RunBaseline(graph, spec.config.baseline_runtime);
  } catch (const SimrdAssertion& e) {  // simrd would crash: not a valid trace
    check.summary = std::string("baseline run: simrd assertion: ") + e.what();
    return check;
  }
  std::vector<BudgetSpec> budgets;
  if (spec.lo) budgets.push_back(*spec.lo);
  const bool fragmentation = spec.property == TraceProperty::kFragmentationOom;
  if (spec.property != TraceProperty::kPinnedOom) budgets.push_back(spec.hi);
  RunConfig config = spec.config;
  if (fragmentation) config.memory = MemoryOptions{};  // first the bytes run
  SweepResult sweep = RunSweep(graph, config, check.baseline, budgets);
  std::vector<SweepPoint> points = std::move(sweep.points);
  if (spec.property == TraceProperty::kPinnedOom || fragmentation) {
    check.diagnosis = Diagnose(graph, WithBudget(spec.config, spec.hi), check.baseline);
    SweepPoint hi;
    hi.index = points.size();
    hi.record = check.diagnosis->record;
    points.push_back(std::move(hi));
  }
  for (const auto& p : points) check.runs.push_back(p.record);
  for (const auto& r : check.runs) {
    check.summary += (check.summary.empty() ? "" : "; ") + Describe(r);
    if (r.status == Status::kError) {
      check.summary += " (simrd assertion: " + r.message + ")";
      return check;  // not a valid trace for simrd
    }
  }
  // Ratios of a small peak can truncate to one budget; the pair then means nothing.
  if (points.size() == 2 && !fragmentation && !(points[0].budget() < points[1].budget())) {
    check.summary += " (budgets not increasing)";
    return check;
  }
  // Overheads are relative to the baseline compute; with none (every TIME 0)
  // they are 0/0 and compare equal to anything, which is no cliff.
  const bool overhead_defined = check.baseline.compute > 0;
  switch (spec.property) {
    case TraceProperty::kInversion:
      check.holds = !FindInversions(points).empty() &&
                    (!spec.failure || points.back().status() == *spec.failure);
      if (!FindInversions(points).empty() && !check.holds)
        check.summary += std::string(" (not the ") + StatusName(*spec.failure) + " it must end in)";
      break;
    case TraceProperty::kCliff:
      check.holds =
          overhead_defined &&
          !FindRegimeCliffs(points, spec.factor, points[1].budget() - points[0].budget()).empty();
      break;
    case TraceProperty::kOverheadRise:
      check.holds = overhead_defined && !FindOverheadRises(points, spec.factor).empty();
      break;
    case TraceProperty::kPinnedOom:
      check.holds = check.diagnosis->PinnedFrontierOom() &&
                    (points.size() == 1 || points[0].status() == Status::kOk);
      if (check.diagnosis->oom)
        check.summary += check.diagnosis->PinnedFrontierOom() ? " (pinned frontier)"
                                                              : " (evictable pool not empty)";
      break;
    case TraceProperty::kFragmentationOom: {
      const std::optional<OomDetails>& oom = check.diagnosis->oom;
      check.holds =
          IsFragmentationOom(points[0].status(), points[1].status()) && oom && oom->BytesFit();
      if (oom)
        check.summary += oom->BytesFit() ? " (the allocator refused where the bytes fit)"
                                         : " (the bytes did not fit: not the allocator's failure)";
      break;
    }
  }
  return check;
}

}  // namespace dtrcheck
