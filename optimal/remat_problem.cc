#include "optimal/remat_problem.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace dtrcheck {

namespace {

// The tensor that owns `t`'s storage (itself unless `t` is a view).
TensorId StorageRoot(const Graph& g, TensorId t) {
  while (true) {
    const GTensor& gt = g.tensors[t];
    int32_t a = g.ops[gt.op].alias[gt.index];
    if (a < 0) return t;
    t = g.ops[gt.op].args[a];
  }
}

// A CONSTANT of the log: the builder makes it an argument-less, free
// operator named "constant/<n>" and pins its tensor right after computing
// it (sim/graph_builder.cc). A CALL named "constant" is not pinned.
bool IsConstant(const Graph& g, size_t command) {
  const GOp& op = g.ops[g.schedule[command].target];
  if (op.name.rfind("constant/", 0) != 0 || !op.args.empty() || op.cost != 0 ||
      op.result.size() != 1 || command + 1 >= g.schedule.size())
    return false;
  const Command& next = g.schedule[command + 1];
  return next.kind == CommandKind::kPin && next.target == op.result[0];
}

}  // namespace

std::vector<std::vector<int>> RematProblem::Users() const {
  std::vector<std::vector<int>> users(units.size());
  for (size_t k = 0; k < nodes.size(); ++k)
    for (int u : nodes[k].deps) users[u].push_back(static_cast<int>(k));
  return users;
}

std::vector<std::vector<int>> RematProblem::Views() const {
  std::vector<std::vector<int>> views(units.size());
  for (size_t u = 0; u < units.size(); ++u)
    if (units[u].base >= 0) views[units[u].base].push_back(static_cast<int>(u));
  return views;
}

std::vector<std::vector<bool>> RematProblem::Needed() const {
  const int n = static_cast<int>(nodes.size());
  std::vector<std::vector<bool>> need(n + 2, std::vector<bool>(units.size(), false));
  std::vector<bool> base(units.size(), false);
  for (int o : outputs) base[o] = true;
  for (int t = n + 1; t >= 0; --t) {
    if (t < n)
      for (int u : nodes[t].deps) base[u] = true;
    std::vector<bool> closure = base;
    for (int u = static_cast<int>(units.size()) - 1; u >= 0; --u)  // producers come first
      if (closure[u])
        for (int d : nodes[units[u].node].deps) closure[d] = true;
    need[t] = closure;
  }
  return need;
}

std::string StepsViolation(const RematProblem& p, Int budget, const std::vector<NodeStep>& steps) {
  const int n = static_cast<int>(p.nodes.size());
  const std::vector<std::vector<int>> views = p.Views();
  std::vector<bool> resident(p.units.size(), false);
  Int held = 0;   // bytes of the resident units
  int stage = 0;  // the next node to run for the first time
  for (size_t i = 0; i < steps.size(); ++i) {
    const NodeStep& s = steps[i];
    const std::string at = "step " + std::to_string(i) + ": ";
    if (!s.compute) {
      // A view whose storage went first may still be freed (as a Graph
      // schedule frees a view: the view alone).
      if (s.index < 0 || s.index >= static_cast<int>(p.units.size()) ||
          (!resident[s.index] && p.units[s.index].base < 0))
        return at + "unit " + std::to_string(s.index) + " freed while not resident";
      if (!resident[s.index]) continue;
      resident[s.index] = false;
      held -= p.units[s.index].size;
      for (int v : views[s.index]) resident[v] = false;  // a view goes with its storage
      continue;
    }
    if (s.index < 0 || s.index > stage || s.index >= n)
      return at + "node " + std::to_string(s.index) + " computed before node " +
             std::to_string(stage) + "'s first run";
    const RematNode& node = p.nodes[s.index];
    for (int u : node.deps)
      if (!resident[u])
        return at + "node " + node.name + ": argument unit " + std::to_string(u) + " not resident";
    for (int u : node.units)
      if (!resident[u]) {
        resident[u] = true;
        held += p.units[u].size;
      }
    const Int constants = stage < n ? p.nodes[stage].resident_before : p.fixed_at_end;
    if (constants + held > budget)
      return at + "node " + node.name + ": memory " + IntToString(constants + held) +
             " over the budget " + IntToString(budget);
    if (s.index == stage) ++stage;
  }
  if (stage != n) return "node " + std::to_string(stage) + " never runs";
  for (int o : p.outputs)
    if (!resident[o]) return "output unit " + std::to_string(o) + " not resident at the end";
  if (p.fixed_at_end + held > budget)
    return "memory at the end " + IntToString(p.fixed_at_end + held) + " over the budget " +
           IntToString(budget);
  return "";
}

RematProblem MakeRematProblem(const Graph& g) {
  RematProblem p;
  std::vector<int> unit_of(g.tensors.size(), -1);  // -1: a constant's, or not yet made
  std::vector<bool> computed(g.ops.size(), false);
  // Not g.output_ram: simrd's runtimes never count it (simrd/parse/parse.py
  // only records it in g.meta under PREALLOCATE), and counting it beside
  // the outputs' own storages counted them twice
  // (corpus/optimal-violation/13ce98b1839fac0e).
  Int fixed = 0;
  auto unit = [&](TensorId t) -> int {
    if (!computed[g.tensors[t].op]) throw std::invalid_argument("an argument before its producer");
    return unit_of[t];
  };
  for (size_t ci = 0; ci < g.schedule.size(); ++ci) {
    const Command& c = g.schedule[ci];
    if (c.kind != CommandKind::kCompute) continue;
    const GOp& op = g.ops[c.target];
    if (computed[c.target]) throw std::invalid_argument("operator " + op.name + " computed twice");
    if (IsConstant(g, ci)) {
      computed[c.target] = true;
      fixed += op.size.at(0);
      continue;
    }
    const int k = static_cast<int>(p.nodes.size());
    RematNode n;
    n.op = c.target;
    n.name = op.name;
    n.cost = op.cost;
    n.resident_before = fixed;
    std::set<int> deps;
    for (TensorId a : op.args) {
      if (int u = unit(a); u >= 0) deps.insert(u);
      if (int u = unit(StorageRoot(g, a)); u >= 0) deps.insert(u);
    }
    n.deps.assign(deps.begin(), deps.end());
    computed[c.target] = true;
    for (size_t i = 0; i < op.result.size(); ++i) {
      RematUnit u;
      u.node = k;
      u.tensor = op.result[i];
      if (op.alias[i] < 0)
        u.size = op.size[i];
      else
        u.base = unit(StorageRoot(g, op.args[op.alias[i]]));
      if (op.alias[i] >= 0 && u.base < 0) continue;  // a view of a constant: always there
      unit_of[op.result[i]] = static_cast<int>(p.units.size());
      n.units.push_back(static_cast<int>(p.units.size()));
      p.units.push_back(u);
    }
    p.model_compute += n.cost;
    p.nodes.push_back(std::move(n));
  }
  p.fixed_at_end = fixed;
  // The outputs are what the schedule pins, as simrd's runtime sees them:
  // under REMATERIALIZE the log's end pins each output (rematerializing it
  // if evicted); under PREALLOCATE nothing is pinned at the end and an
  // output may end evicted. A constant's pin is its own (unit_of -1).
  std::set<int> outputs;
  for (const Command& c : g.schedule)
    if (c.kind == CommandKind::kPin)
      if (int u = unit_of[StorageRoot(g, c.target)]; u >= 0) outputs.insert(u);
  p.outputs.assign(outputs.begin(), outputs.end());
  return p;
}

}  // namespace dtrcheck
