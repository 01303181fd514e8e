#include "optimal/run_schedule.h"

#include <map>

namespace dtrcheck {

namespace {

// Records the run's computes (by operator) and evictions (by the tensor
// that owns the storage) as they happen.
// The log's constants are not computed in a schedule (they are resident
// from where the log creates them): their computes are left out.
class ScheduleRecorder : public RuntimeObserver {
 public:
  ScheduleRecorder(const Graph& g, const RematProblem& p) : g_(g), node_op_(g.ops.size(), false) {
    for (const RematNode& n : p.nodes) node_op_[n.op] = true;
  }
  void OnCompute(TensorId tensor) override {
    const OpId op = g_.tensors[tensor].op;
    if (node_op_[op]) steps.push_back({ScheduleStep::kCompute, op});
  }
  void OnEvict(Int, TensorId root) override { steps.push_back({ScheduleStep::kFree, root}); }
  std::vector<ScheduleStep> steps;

 private:
  const Graph& g_;
  std::vector<bool> node_op_;
};

// The schedule in problem terms, or an error naming the step the model has
// no counterpart for.
std::optional<std::vector<NodeStep>> ToNodeSteps(const Graph& g, const RematProblem& p,
                                                 const Schedule& s, std::string* error) {
  std::map<OpId, int> node_of;
  std::map<TensorId, int> unit_of;
  for (size_t k = 0; k < p.nodes.size(); ++k) node_of[p.nodes[k].op] = static_cast<int>(k);
  for (size_t u = 0; u < p.units.size(); ++u) unit_of[p.units[u].tensor] = static_cast<int>(u);
  std::vector<NodeStep> steps;
  for (const ScheduleStep& step : s.steps) {
    if (step.kind == ScheduleStep::kCompute) {
      auto it = node_of.find(step.target);
      if (it == node_of.end()) {
        *error = "it computes the constant " + g.ops[step.target].name;
        return std::nullopt;
      }
      steps.push_back({it->second, true});
    } else {
      auto it = unit_of.find(step.target);
      if (it == unit_of.end()) {
        *error = "it frees " + g.tensors[step.target].name +
                 ", a constant (the model keeps constants resident)";
        return std::nullopt;
      }
      steps.push_back({it->second, false});
    }
  }
  return steps;
}

}  // namespace

RunAsSchedule ScheduleOfRun(const Graph& g, const RematProblem& p, const RunConfig& config,
                            const Baseline& baseline, Int budget) {
  RunAsSchedule out;
  RunConfig c = config;
  c.ratio.reset();
  c.budget = budget;
  ScheduleRecorder recorder(g, p);
  out.record = Simulate(g, c, baseline, &recorder);
  out.schedule.steps = std::move(recorder.steps);
  if (out.record.status != Status::kOk) return out;
  const std::string what = config.heuristic + " on " + config.runtime;
  out.check = CheckSchedule(g, out.schedule, budget);
  if (!out.check.ok) {
    out.gap = what + " ends ok, but the checker refuses its schedule: " + out.check.error;
    return out;
  }
  std::string error;
  std::optional<std::vector<NodeStep>> steps = ToNodeSteps(g, p, out.schedule, &error);
  if (!steps) {
    out.gap = what + " ends ok, but its schedule is not the model's: " + error;
    return out;
  }
  Incumbent inc;
  inc.compute = out.check.compute;
  inc.steps = std::move(*steps);
  inc.source = what;
  out.incumbent = std::move(inc);
  return out;
}

std::optional<Incumbent> CheapestIncumbent(const std::vector<RunAsSchedule>& runs) {
  std::optional<Incumbent> best;
  for (const RunAsSchedule& r : runs) {
    if (!r.incumbent) continue;
    if (!best || r.incumbent->compute < best->compute) best = r.incumbent;
  }
  return best;
}

bool RuntimeWithinModel(const std::string& runtime) { return runtime != "RuntimeV1"; }

}  // namespace dtrcheck
