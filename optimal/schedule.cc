#include "optimal/schedule.h"

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace dtrcheck {

std::string ScheduleText(const Graph& g, const Schedule& s, const std::string& header) {
  std::ostringstream out;
  std::istringstream lines(header);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  for (const ScheduleStep& step : s.steps)
    out << (step.kind == ScheduleStep::kCompute ? "compute " + g.ops[step.target].name
                                                : "free " + g.tensors[step.target].name)
        << "\n";
  return out.str();
}

Schedule ReadSchedule(const Graph& g, std::string_view text, const std::string& file) {
  std::map<std::string, OpId, std::less<>> ops;
  std::map<std::string, TensorId, std::less<>> tensors;
  for (size_t i = 0; i < g.ops.size(); ++i) ops[g.ops[i].name] = static_cast<OpId>(i);
  for (size_t i = 0; i < g.tensors.size(); ++i)
    tensors[g.tensors[i].name] = static_cast<TensorId>(i);
  Schedule s;
  std::istringstream in{std::string(text)};
  long line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    auto space = line.find(' ');
    std::string verb = line.substr(0, space),
                name = space == line.npos ? "" : line.substr(space + 1);
    auto op = ops.find(name);
    auto tensor = tensors.find(name);
    if (verb == "compute" && op != ops.end())
      s.steps.push_back({ScheduleStep::kCompute, op->second});
    else if (verb == "free" && tensor != tensors.end())
      s.steps.push_back({ScheduleStep::kFree, tensor->second});
    else
      throw std::invalid_argument(file + ":" + std::to_string(line_no) +
                                  ": expected \"compute OPERATOR\" or \"free TENSOR\"");
  }
  return s;
}

ScheduleCheck CheckSchedule(const Graph& g, const Schedule& s, Int budget) {
  ScheduleCheck check;
  // The storage a tensor lives in: follow views to the tensor that owns it.
  auto owner = [&](TensorId t) {
    for (int32_t a; (a = g.ops[g.tensors[t].op].alias[g.tensors[t].index]) >= 0;)
      t = g.ops[g.tensors[t].op].args[a];
    return t;
  };
  // The log's operators in order; constants are those computed in the
  // Graph's schedule and pinned at once.
  std::set<OpId> constants;
  std::vector<OpId> log_order;
  for (size_t i = 0; i < g.schedule.size(); ++i) {
    if (g.schedule[i].kind != CommandKind::kCompute) continue;
    const GOp& op = g.ops[g.schedule[i].target];
    bool pinned_next = i + 1 < g.schedule.size() && g.schedule[i + 1].kind == CommandKind::kPin &&
                       op.result.size() == 1 && g.schedule[i + 1].target == op.result[0];
    if (pinned_next && op.args.empty() && op.cost == 0 && op.name.rfind("constant/", 0) == 0)
      constants.insert(g.schedule[i].target);
    log_order.push_back(g.schedule[i].target);
  }
  std::set<TensorId> resident, materialized;  // storages (owner tensors); tensors
  // output_ram is not memory of simrd's runtimes (parse.py keeps it in
  // g.meta only).
  Int memory = 0;
  check.peak = memory;
  std::set<OpId> done;
  size_t next_first = 0;  // log_order[next_first] is the next operator to run for the first time
  // Constants come into memory where the log creates them.
  auto create_constants = [&]() {
    for (; next_first < log_order.size() && constants.count(log_order[next_first]); ++next_first) {
      TensorId t = g.ops[log_order[next_first]].result[0];
      resident.insert(t);
      materialized.insert(t);
      memory += g.tensors[t].storage_size;
      if (memory > check.peak) check.peak = memory;
    }
    return memory <= budget;
  };
  for (size_t k = 0; k < s.steps.size(); ++k) {
    const ScheduleStep& step = s.steps[k];
    if (step.kind == ScheduleStep::kFree) {
      const TensorId t = step.target;
      const std::string at =
          "step " + std::to_string(k + 1) + " (free " + g.tensors[t].name + "): ";
      if (constants.count(g.tensors[t].op)) {
        check.error = at + "a constant is resident throughout";
        return check;
      }
      materialized.erase(t);
      if (owner(t) != t) continue;  // a view: its storage stays
      if (!resident.erase(t)) {
        check.error = at + "not resident";
        return check;
      }
      memory -= g.tensors[t].storage_size;
      for (size_t v = 0; v < g.tensors.size(); ++v)
        if (owner(static_cast<TensorId>(v)) == t) materialized.erase(static_cast<TensorId>(v));
      continue;
    }
    const OpId op_id = step.target;
    const GOp& op = g.ops[op_id];
    const std::string at = "step " + std::to_string(k + 1) + " (compute " + op.name + "): ";
    if (constants.count(op_id)) {
      check.error = at + "a constant is resident throughout";
      return check;
    }
    if (!done.count(op_id)) {
      if (!create_constants()) {
        check.error = at + "the constants before it exceed the budget";
        return check;
      }
      if (next_first >= log_order.size() || log_order[next_first] != op_id) {
        check.error = at + "runs for the first time out of log order";
        return check;
      }
      ++next_first;
      done.insert(op_id);
    } else {
      ++check.recomputations;
    }
    for (TensorId a : op.args)
      if (!materialized.count(a) || !resident.count(owner(a))) {
        check.error = at + "argument " + g.tensors[a].name + " is not materialized";
        return check;
      }
    for (size_t r = 0; r < op.result.size(); ++r) {
      TensorId t = op.result[r];
      // A resident storage is kept, not allocated again (simrd materializes
      // only what is not material).
      if (op.alias[r] < 0 && resident.insert(t).second) memory += g.tensors[t].storage_size;
      materialized.insert(t);
    }
    check.compute += op.cost;
    if (memory > check.peak) check.peak = memory;
    if (memory > budget) {
      check.error =
          at + "memory " + IntToString(memory) + " exceeds the budget " + IntToString(budget);
      return check;
    }
  }
  if (!create_constants()) {
    check.error = "the constants at the end of the log exceed the budget";
    return check;
  }
  if (next_first != log_order.size()) {
    check.error = "operator " + g.ops[log_order[next_first]].name + " never runs";
    return check;
  }
  // The tensors the log's schedule pins must be resident at the end (a
  // view's storage is what is resident): under REMATERIALIZE the end of
  // the log pins every output, under PREALLOCATE nothing (simrd lets an
  // output end evicted). A constant's pin is resident anyway.
  for (const Command& c : g.schedule) {
    if (c.kind != CommandKind::kPin || constants.count(g.tensors[c.target].op)) continue;
    if (!resident.count(owner(c.target))) {
      check.error = "output " + g.tensors[c.target].name + " is not resident at the end";
      return check;
    }
  }
  check.ok = true;
  return check;
}

}  // namespace dtrcheck
