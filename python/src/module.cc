// The extension module dtrcheck._dtrcheck. The Python package dtrcheck
// (python/dtrcheck) wraps it; nothing here is meant to be called directly.
#include <pybind11/pybind11.h>

#include "analyses.h"
#include "plugins/plugin_heuristic.h"
#include "python_heuristic.h"
#include "simrd_state.h"
#include "simulation.h"

namespace py = pybind11;

PYBIND11_MODULE(_dtrcheck, m) {
  m.doc() = "dtrcheck's simulator and analyses (use the package dtrcheck)";
  m.attr("__version__") = DTRCHECK_VERSION;
  // dtrcheck.Error: bad input and failed commands alike, as the CLI's exit 2.
  py::register_exception<dtrcheck::python::CommandError>(
      m, "Error", py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_RuntimeError)));
  // dtrcheck's own address-aware policies (policies/: DTE, Coop,
  // MegEngineDTR, MegEngineDTRSqrt), by name, as the CLI registers them.
  dtrcheck::RegisterAddressPolicies();
  dtrcheck::python::BindSimulation(m);
  dtrcheck::python::BindHeuristics(m);
  dtrcheck::python::BindSimrdState(m);
  dtrcheck::python::BindAnalyses(m);
}
