// A simrd Graph as a rematerialization problem: the operators to execute in
// log order, the storages each creates, which it needs resident, and what
// it costs.
//
// This is the model the exact solver (optimal/milp_solver.h) and the
// exhaustive search (optimal/exhaustive.h) optimise over. Its relation to
// simrd's runtime, and where it differs, is in optimal/README.md; in short:
//  * a node is a non-constant operator, computed as a whole (all its
//    outputs at once, as simrd's compute does); a unit is one thing a node
//    makes resident: a storage it creates (its bytes), or a view of an
//    argument's storage (0 bytes, resident only while that storage is);
//    units are freed one by one, as simrd frees storages;
//  * a node needs resident the unit of each argument tensor and, for a
//    view argument, the storage it views;
//  * constants are resident from where the log creates them to the end
//    (never freed, never recomputed);
//  * the outputs (storages still referenced at the end of the log) must be
//    resident at the end, unless under PREALLOCATE (simrd pins them only
//    under REMATERIALIZE).
#ifndef DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_
#define DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_

#include <string>
#include <vector>

#include "sim/graph.h"

namespace dtrcheck {

struct RematUnit {
  int node = 0;     // the node that makes it resident
  TensorId tensor;  // in the Graph
  Int size = 0;     // bytes; 0 for a view
  int base = -1;    // a view: the unit of the storage it views
};

struct RematNode {
  OpId op = -1;             // in the Graph
  std::string name;         // simrd's unique operator name ("conv/12")
  Int cost = 0;             // TIME
  Int resident_before = 0;  // bytes of constants resident when it first runs
  std::vector<int> units;   // what it makes resident
  std::vector<int> deps;    // units that must be resident to compute it (ascending)
};

struct RematProblem {
  std::vector<RematNode> nodes;  // in log order
  std::vector<RematUnit> units;  // in order of their nodes
  Int fixed_at_end = 0;          // every constant
  // Units that must be resident at the end (ascending): the storages the
  // log's schedule pins at its end (none under PREALLOCATE, where simrd
  // pins nothing and counts no output_ram).
  std::vector<int> outputs;
  Int model_compute = 0;  // each node once: the Graph's compute
  // users[u]: the nodes that need unit u (ascending).
  std::vector<std::vector<int>> Users() const;
  // views[u]: the view units whose base is u.
  std::vector<std::vector<int>> Views() const;
  // need[t][u], for stages t <= n + 1 (n = nodes.size()): unit u may still
  // be needed in stage t or later: it is an argument of node t or a later
  // node, or an output, or an argument of the node of such a unit (which
  // may be recomputed). A unit not needed in stage t can be freed there at
  // no loss; both exact engines drop what is not needed.
  std::vector<std::vector<bool>> Needed() const;
};

// A schedule in problem terms: compute node `index`, or free unit `index`.
struct NodeStep {
  int index = 0;
  bool compute = true;
  bool operator==(const NodeStep&) const = default;
};

// The first way `steps` breaks the model under `budget` ("" if none): a
// node computed for the first time out of log order, an argument not
// resident, memory (the constants of the stage and every resident unit)
// over the budget after a computation, a unit freed that is not resident,
// an output missing at the end. Exact integer arithmetic: the engines'
// schedules pass through it before any is reported, so that a solver's
// floating-point slip (corpus/optimal-violation/4ae0a241202cb29e, a CBC
// solution breaking a dependency row) is caught in problem terms, not only
// by the Graph checker (optimal/schedule.h) afterwards.
std::string StepsViolation(const RematProblem& p, Int budget, const std::vector<NodeStep>& steps);

// Throws std::invalid_argument for a Graph whose schedule computes an
// operator twice or an argument before its producer (no simrd log does).
RematProblem MakeRematProblem(const Graph& graph);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_
