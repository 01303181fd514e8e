#include "py_int.h"

#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace dtrcheck::python {

py::int_ IntToPy(Int v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return py::int_(static_cast<long long>(v));
  return py::reinterpret_steal<py::int_>(PyLong_FromString(IntToString(v).c_str(), nullptr, 10));
}

Int PyToInt(py::handle h, const char* what) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
    throw std::invalid_argument(std::string(what) + " must be an int, not " +
                                std::string(py::str(py::type::handle_of(h).attr("__name__"))));
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (!overflow) return v;
  std::string digits = py::str(h);
  std::optional<Int> big = ParseInt(digits);
  if (!big)
    throw std::invalid_argument(std::string(what) + " " + digits + " is outside -2^127 .. 2^127-1");
  return *big;
}

}  // namespace dtrcheck::python
