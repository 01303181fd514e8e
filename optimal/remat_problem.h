// A simrd Graph as a rematerialization problem: the operators to execute in
// log order, what each needs resident, what it allocates and what it costs.
//
// This is the model the exact solver (optimal/milp_solver.h) and the
// exhaustive search (optimal/exhaustive.h) optimise over. Its relation to
// simrd's runtime, and where it differs, is in optimal/README.md; in short:
//  * a node is a non-constant operator, computed as a whole (its cost once,
//    all its new storages allocated at once: simrd's total_size);
//  * a unit is what is resident: each new storage an operator creates
//    (freed on its own, as simrd evicts each storage of a tuple), and one
//    zero-size unit for an operator's views, resident only while the
//    storages it views are (aliases collapsed onto their base storage, as
//    parse/graph.py does for Checkmate);
//  * a node needs resident the units of its arguments: a storage, or a
//    view and the storage it views;
//  * constants are resident from where the log creates them to the end
//    (never freed, never recomputed);
//  * the outputs (storages still referenced at the end of the log) must be
//    resident at the end.
#ifndef DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_
#define DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_

#include <string>
#include <vector>

#include "sim/graph.h"

namespace dtrcheck {

struct RematUnit {
  int node = 0;            // the node that creates it
  Int size = 0;            // its storage's bytes; 0 for the views unit
  TensorId tensor = -1;    // the storage's tensor; -1 for the views unit
  std::vector<int> bases;  // views unit: the storage units it views (ascending)
};

struct RematNode {
  OpId op = -1;             // in the Graph
  std::string name;         // simrd's unique operator name ("conv/12")
  Int cost = 0;             // TIME
  Int size = 0;             // bytes of the storages it creates (its units' sizes)
  Int resident_before = 0;  // bytes of constants (and output_ram) resident when it first runs
  std::vector<int> units;   // the units it creates (ascending)
  std::vector<int> deps;    // units that must be resident to compute it (ascending)
};

struct RematProblem {
  std::vector<RematNode> nodes;  // in log order
  std::vector<RematUnit> units;  // by node, then output order
  Int fixed_at_end = 0;          // every constant, and output_ram under PREALLOCATE
  std::vector<int> outputs;      // units that must be resident at the end (ascending)
  Int model_compute = 0;         // each node once: the Graph's compute
  // users[u]: the nodes that need unit u (ascending).
  std::vector<std::vector<int>> Users() const;
};

// Throws std::invalid_argument for a Graph whose schedule computes an
// operator twice or an argument before its producer (no simrd log does).
RematProblem MakeRematProblem(const Graph& graph);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_
