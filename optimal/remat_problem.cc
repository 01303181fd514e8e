#include "optimal/remat_problem.h"

#include <algorithm>
#include <map>
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
  std::vector<std::vector<int>> users(nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k)
    for (int d : nodes[k].deps) users[d].push_back(static_cast<int>(k));
  return users;
}

RematProblem MakeRematProblem(const Graph& g) {
  RematProblem p;
  std::vector<int> node_of(g.ops.size(), -1);
  std::vector<bool> computed(g.ops.size(), false);
  Int fixed = g.output_ram;  // resident from the start
  auto producer = [&](TensorId t) -> int {
    OpId op = g.tensors[t].op;
    if (!computed[op]) throw std::invalid_argument("an argument before its producer");
    return node_of[op];  // -1: a constant
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
    RematNode n;
    n.op = c.target;
    n.name = op.name;
    n.cost = op.cost;
    n.resident_before = fixed;
    std::set<int> deps, bases;
    for (TensorId a : op.args) {
      if (int d = producer(a); d >= 0) deps.insert(d);
      if (int b = producer(StorageRoot(g, a)); b >= 0) deps.insert(b);
    }
    for (size_t i = 0; i < op.result.size(); ++i) {
      if (op.alias[i] < 0) {
        n.size += op.size[i];
      } else if (int b = producer(StorageRoot(g, op.args[op.alias[i]])); b >= 0) {
        bases.insert(b);
      }
    }
    n.deps.assign(deps.begin(), deps.end());
    n.view_bases.assign(bases.begin(), bases.end());
    computed[c.target] = true;
    node_of[c.target] = static_cast<int>(p.nodes.size());
    p.model_compute += n.cost;
    p.nodes.push_back(std::move(n));
  }
  p.fixed_at_end = fixed;
  std::map<std::string, TensorId> by_name;
  for (size_t t = 0; t < g.tensors.size(); ++t)
    by_name[g.tensors[t].name] = static_cast<TensorId>(t);
  std::set<int> outputs;
  for (const std::string& storage : g.outputs) {
    auto it = by_name.find(storage);
    if (it == by_name.end()) throw std::invalid_argument("output " + storage + " has no tensor");
    if (int n = node_of[g.tensors[StorageRoot(g, it->second)].op]; n >= 0) outputs.insert(n);
  }
  p.outputs.assign(outputs.begin(), outputs.end());
  return p;
}

}  // namespace dtrcheck
