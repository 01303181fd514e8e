// The extension's simulation functions (simulation.cc) and the exception
// they raise, translated to dtrcheck.Error (module.cc).
#ifndef DTRCHECK_PYTHON_SIMULATION_H_
#define DTRCHECK_PYTHON_SIMULATION_H_

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace dtrcheck::python {

// A command failed; the message is the CLI's ("dtrcheck run: ...").
class CommandError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Binds run, sweep, scan, traces and resolve_trace (JSON text in and out).
void BindSimulation(pybind11::module_& m);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_SIMULATION_H_
