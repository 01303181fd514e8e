// A simrd Graph as a rematerialization problem: the operators to execute in
// log order, what each needs resident, what it allocates and what it costs.
//
// This is the model the exact solver (optimal/milp_solver.h) and the
// exhaustive search (optimal/exhaustive.h) optimise over. Its relation to
// simrd's runtime, and where it differs, is in optimal/README.md; in short:
//  * a node is a non-constant operator; its size is the bytes of the new
//    storages it creates (a tuple's outputs merged, as simrd's
//    parse/checkmate.py merges tuples; views add nothing);
//  * a node depends on the producers of its arguments' storages: an
//    argument that is a view needs both the view's operator and the
//    operator that created the storage it views (aliases collapsed onto
//    their base storage, as parse/graph.py does for Checkmate);
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

struct RematNode {
  OpId op = -1;                 // in the Graph
  std::string name;             // simrd's unique operator name ("conv/12")
  Int cost = 0;                 // TIME
  Int size = 0;                 // bytes of the storages it creates
  Int resident_before = 0;      // bytes of constants (and output_ram) resident when it first runs
  std::vector<int> deps;        // nodes that must be resident to compute it (ascending)
  std::vector<int> view_bases;  // nodes whose storages its views alias (ascending)
};

struct RematProblem {
  std::vector<RematNode> nodes;  // in log order
  Int fixed_at_end = 0;          // every constant, and output_ram under PREALLOCATE
  std::vector<int> outputs;      // nodes that must be resident at the end (ascending)
  Int model_compute = 0;         // each node once: the Graph's compute
  // users[i]: the nodes that depend on node i (ascending).
  std::vector<std::vector<int>> Users() const;
};

// Throws std::invalid_argument for a Graph whose schedule computes an
// operator twice or an argument before its producer (no simrd log does).
RematProblem MakeRematProblem(const Graph& graph);

}  // namespace dtrcheck

#endif  // DTRCHECK_OPTIMAL_REMAT_PROBLEM_H_
