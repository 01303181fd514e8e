// Heuristics written in Python (python/dtrcheck/heuristic.py), run by the
// simulator through the public extension API (include/dtrcheck/heuristic.h):
// a trampoline api::Heuristic calls the Python object's score and choose
// with the API's View, and is registered in the heuristic registry
// (sim/heuristic.h, through plugins/plugin_heuristic.h) under the policy's name, so that a Python
// policy is usable wherever a heuristic name is.
#ifndef DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_
#define DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_

#include <pybind11/pybind11.h>

namespace dtrcheck::python {

// Binds View (the API's View, method names in snake_case) and
// register_heuristic(name, label): the factory of `name` is
// _factories[name], a Python callable taking the run's seed and returning
// (score, choose or None, feature bits, policy name for messages).
void BindHeuristics(pybind11::module_& m);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_
