// How the extension runs a command: the GIL released, C++ exceptions turned
// into dtrcheck.Error with the CLI's message, and Ctrl-C turned into
// KeyboardInterrupt. While a command runs, SIGINT only sets a flag
// (base/interrupt_guard.h, as for the CLI); the simulator
// polls it (a RuntimeObserver at every command, the sweep's and the
// reducer's `cancel`), so the command stops within one schedule command and
// Python then raises KeyboardInterrupt. Python's own handler is put back
// when the last running command ends.
#ifndef DTRCHECK_PYTHON_COMMAND_H_
#define DTRCHECK_PYTHON_COMMAND_H_

#include <pybind11/pybind11.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "base/interrupt_guard.h"
#include "sim/telemetry.h"
#include "simulation.h"

namespace dtrcheck::python {

// SIGINT caught while a command runs: nested and concurrent commands share
// one guard's flag (base/interrupt_guard.h). Construct with the GIL held.
using Interrupt = InterruptGuard;

// Thrown out of a run by InterruptObserver.
struct Interrupted {};

// Polls the flag at each command of a run (Simulate's observer).
class InterruptObserver : public RuntimeObserver {
 public:
  void OnCommand(size_t) override {
    if (Interrupt::flag()->load(std::memory_order_relaxed)) throw Interrupted{};
  }
};

// Runs f with the GIL released: a C++ exception becomes a CommandError read
// as "dtrcheck NAME: what", a Python error raised inside stays itself, and
// an interrupted command raises KeyboardInterrupt.
template <typename F>
auto Command(const char* name, F f) -> decltype(f()) {
  Interrupt interrupt;
  auto raise_interrupt = [] {
    PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw pybind11::error_already_set();
  };
  try {
    pybind11::gil_scoped_release release;
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
    } else {
      auto result = f();
      if (!Interrupt::interrupted()) return result;
    }
  } catch (const pybind11::error_already_set&) {
    throw;
  } catch (const Interrupted&) {
    raise_interrupt();
  } catch (const std::exception& e) {
    if (Interrupt::interrupted()) raise_interrupt();
    throw CommandError(std::string("dtrcheck ") + name + ": " + e.what());
  }
  if (Interrupt::interrupted()) raise_interrupt();
  if constexpr (!std::is_void_v<decltype(f())>) throw std::logic_error("unreachable");
}

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_COMMAND_H_
