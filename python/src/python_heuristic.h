// Heuristics written in Python (python/dtrcheck/heuristic.py), run by the
// simulator through the public extension API (include/dtrcheck/heuristic.h):
// a trampoline api::Heuristic calls the Python object's score and choose
// with the API's View, and is registered in the heuristic registry
// (sim/heuristic.h, through plugins/plugin_heuristic.h) under the policy's name, so that a Python
// policy is usable wherever a heuristic name is.
#ifndef DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_
#define DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_

#include <pybind11/pybind11.h>

#include "dtrcheck/heuristic.h"

namespace dtrcheck::python {

// Binds View (the API's View, method names in snake_case) and
// register_heuristic(name, label): the factory of `name` is
// _factories[name], a Python callable taking the run's seed and returning
// (score, choose or None, feature bits, policy name for messages).
void BindHeuristics(pybind11::module_& m);

// Shared with the simrd adapter's heuristics (simrd_state.h), called with
// the GIL held:
// the Python exception as a std::runtime_error of its text ("TypeError: ..."),
// the Python error cleared;
[[noreturn]] void Rethrow(pybind11::error_already_set& e);
// a score as the API's Cost: a float, or an int as an exact Int (a bool or
// anything else: std::runtime_error "score returned T, expected ...");
api::Cost ToCost(pybind11::handle r);
// a stamp as simrd keeps it: an int, or -math.inf before the first access.
pybind11::object StampToPy(const api::Stamp& s);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_PYTHON_HEURISTIC_H_
