// The graph and schedule of a parsed simrd log (simrd/parse/graph.py).
//
// A Graph holds operators (GOp) and the tensors they produce (GTensor), and
// the schedule that replays the log: Compute an operator, Get (take another
// reference to) or Pin a tensor, Release a reference. Tensors are numbered in
// the order their operators are scheduled, which is also the order in which a
// simrd runtime assigns tensor ids, so a GTensor's index is its simrd id.
#ifndef DTRCHECK_SIM_GRAPH_H_
#define DTRCHECK_SIM_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/python/py_arith.h"

namespace dtrcheck {

using TensorId = int32_t;
using OpId = int32_t;

struct GOp {
  Int cost = 0;                // compute time (the log's TIME)
  std::vector<Int> size;       // per output; 0 for aliases
  std::vector<int32_t> alias;  // per output: index into args, or -1
  std::vector<TensorId> args;
  std::vector<TensorId> result;
  std::string name;  // simrd's unique name "<NAME>/<n>"
  bool bwd = false;
  bool operator==(const GOp&) const = default;
};

struct GTensor {
  OpId op = -1;
  int32_t index = 0;  // position among the op's outputs
  std::string name;   // the log's name (or "<name>$" for MUTATE)
  Int storage_size = 0;
  bool operator==(const GTensor&) const = default;
};

enum class CommandKind : uint8_t { kCompute, kGet, kPin, kRelease };

struct Command {
  CommandKind kind;
  int32_t target;  // an OpId for kCompute, a TensorId otherwise
  // The log line the command comes from (1-based), 0 for the end-of-log pins
  // and graphs not read from a log. Where a simrd assertion fails, the
  // message names it. Not part of the schedule's meaning: == ignores it.
  int32_t line = 0;
  bool operator==(const Command& o) const { return kind == o.kind && target == o.target; }
};

struct Graph {
  std::vector<GOp> ops;
  std::vector<GTensor> tensors;
  std::vector<Command> schedule;
  Int compute = 0;                   // simrd's g.meta['compute']: total op cost
  Int output_ram = 0;                // g.meta['output_ram'] under OutputCondition.PREALLOCATE
  std::vector<std::string> outputs;  // storage names of the outputs, sorted

  bool operator==(const Graph&) const = default;
};

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_GRAPH_H_
