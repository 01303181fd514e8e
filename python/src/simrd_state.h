// simrd's heuristic classes, run unchanged (python/dtrcheck/simrd_adapter.py).
//
// Most of simrd's classes read what the public API's View gives, but
// DTREqClass, the AbEq* ablations and DTRUnopt walk simrd's storage graph
// themselves (Storage.evicted_neighbors over s.tensors and t.parents /
// t.children, EqClassNode.find_root over s.meta['ecn'], Region.rebuild over
// rt.tensor_map), and every class counts its own telemetry
// (rt.telemetry.summary[...] += 1). So the adapter's heuristics are
// simulator heuristics (sim/heuristic.h), not API ones: during evaluate and
// choose, Python reads the Runtime itself through a SimrdState (the graph,
// the union-find forest with write access to EqClassNode._parent, the
// summary's two heuristic counters), and the simulator counts nothing for
// them: the counters are what the class's code adds, as in simrd.
#ifndef DTRCHECK_PYTHON_SIMRD_STATE_H_
#define DTRCHECK_PYTHON_SIMRD_STATE_H_

#include <pybind11/pybind11.h>

#include <string>

namespace dtrcheck::python {

// Binds SimrdState and register_simrd_heuristic(name, label): the factory of
// `name` is _simrd_factories[name], a Python callable taking (seed, state)
// and returning (evaluate(storage), choose() or None, feature bits).
void BindSimrdState(pybind11::module_& m);

// Whether `name` was registered by register_simrd_heuristic.
bool IsSimrdAdapterName(const std::string& name);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_SIMRD_STATE_H_
