// simrd's integers are Python ints; dtrcheck's are 128-bit (sim/python/py_arith.h).
// The conversions between the two, exact, for the extension's bindings.
#ifndef DTRCHECK_PYTHON_PY_INT_H_
#define DTRCHECK_PYTHON_PY_INT_H_

#include <pybind11/pybind11.h>

#include "sim/python/py_arith.h"

namespace dtrcheck::python {

// A Python int holding v.
pybind11::int_ IntToPy(Int v);

// The value of a Python int (not a bool). Throws std::invalid_argument
// naming `what` for another type or a value outside -2^127 .. 2^127-1.
Int PyToInt(pybind11::handle h, const char* what);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_PY_INT_H_
