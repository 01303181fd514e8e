// The extension's analyses beyond a sweep (analyses.cc): check_property,
// reduce, optimal, census, fuzz_check, and the C++ lists of names
// (finding kinds, properties, statuses).
#ifndef DTRCHECK_PYTHON_ANALYSES_H_
#define DTRCHECK_PYTHON_ANALYSES_H_

#include <pybind11/pybind11.h>

namespace dtrcheck::python {

void BindAnalyses(pybind11::module_& m);

}  // namespace dtrcheck::python

#endif  // DTRCHECK_PYTHON_ANALYSES_H_
