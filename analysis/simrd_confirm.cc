#include "analysis/simrd_confirm.h"

#include <stdexcept>

#include "io/record.h"
#include "oracle/simrd_client.h"

namespace dtrcheck {

bool PropertyHoldsOnRecords(const PropertySpec& spec, const std::vector<RunRecord>& records) {
  std::vector<SweepPoint> points;
  for (size_t i = 0; i < records.size(); ++i) points.push_back(SweepPoint{i, records[i]});
  for (const auto& p : points)
    if (p.status() == Status::kError) return false;
  if (points.size() == 2 && !(points[0].budget() < points[1].budget())) return false;
  const bool overhead_defined =
      !records.empty() && records[0].baseline.compute > 0;  // see reduce_property.cc
  switch (spec.property) {
    case TraceProperty::kInversion:
      return !FindInversions(points).empty();
    case TraceProperty::kCliff:
      return points.size() == 2 && overhead_defined &&
             !FindRegimeCliffs(points, spec.factor, points[1].budget() - points[0].budget())
                  .empty();
    case TraceProperty::kOverheadRise:
      return overhead_defined && !FindOverheadRises(points, spec.factor).empty();
    case TraceProperty::kPinnedOom:
      return points.back().status() == Status::kOom &&
             (points.size() == 1 || points[0].status() == Status::kOk);
    case TraceProperty::kFragmentationOom:
      // simrd has no allocator: its half is the run in bytes, ok.
      return points.size() == 1 && points[0].status() == Status::kOk;
  }
  return false;
}

std::optional<std::string> SimrdCannotJudge(const PropertySpec& spec) {
  if (spec.config.memory.model == MemoryModel::kBytes ||
      spec.property == TraceProperty::kFragmentationOom)
    return std::nullopt;
  return "simrd has no allocator model: the " + std::string(TracePropertyName(spec.property)) +
         " under --memory " + MemoryModelName(spec.config.memory.model) +
         " cannot be confirmed by it";
}

std::vector<RunRecord> SimrdRecords(const std::string& trace_path, const PropertySpec& spec,
                                    std::vector<Json>* as_printed) {
  // simrd's memory is bytes: its runs are those under bytes.
  RunConfig config = spec.config;
  config.memory = MemoryOptions{};
  std::vector<Json> configs;
  if (spec.lo) configs.push_back(ConfigToJson(WithBudget(config, *spec.lo)));
  configs.push_back(ConfigToJson(WithBudget(config, spec.hi)));
  std::vector<Json> printed = RunOracle(trace_path, configs);
  if (as_printed) *as_printed = printed;
  std::vector<RunRecord> records;
  for (const Json& j : printed) {
    if (j.contains("error")) throw std::runtime_error("simrd: " + j.dump());
    records.push_back(RecordFromJson(j));
  }
  return records;
}

Json SimrdConfirmation::ToJson() const {
  Json j;
  j["available"] = available;
  if (!available) {
    j["reason"] = error;
    return j;
  }
  j["confirmed"] = confirmed;
  if (!error.empty()) {
    j["error"] = error;
    return j;
  }
  j["property_holds"] = property_holds;
  j["differences"] = differences;
  j["records"] = records;
  return j;
}

SimrdConfirmation ConfirmWithSimrd(const std::string& trace_path, const PropertySpec& spec,
                                   const PropertyCheck& ours) {
  SimrdConfirmation c;
  if (!FindSimrd()) {
    c.error = kSimrdNotFound;
    return c;
  }
  if (std::optional<std::string> why = SimrdCannotJudge(spec)) {
    c.error = *why;
    return c;
  }
  c.available = true;
  try {
    std::vector<RunRecord> simrd = SimrdRecords(trace_path, spec, &c.records);
    for (size_t i = 0; i < c.records.size() && i < ours.runs.size(); ++i)
      for (const auto& f :
           DifferingFields(RecordToJson(ours.runs[i]), c.records[i], spec.config.heuristic))
        c.differences.push_back("run " + std::to_string(i) + ": " + f);
    // fragmentation-oom: simrd's one run is our first (in bytes).
    const size_t compared =
        spec.property == TraceProperty::kFragmentationOom ? 1 : ours.runs.size();
    if (compared != simrd.size()) c.differences.push_back("number of runs");
    c.property_holds = PropertyHoldsOnRecords(spec, simrd);
    c.confirmed = c.differences.empty() && c.property_holds;
  } catch (const SimrdUnavailable& e) {  // attrs missing, say: the oracle's own message
    c.available = false;
    c.error = e.what();
  } catch (const std::exception& e) {
    c.error = e.what();
    c.confirmed = false;
  }
  return c;
}

}  // namespace dtrcheck
