#include "python_heuristic.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "dtrcheck/heuristic.h"
#include "py_int.h"
#include "sim/plugin_heuristic.h"
#include "simulation.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

// The origin the registry records for heuristics registered from Python.
constexpr const char* kOrigin = "python";

// The Python exception as text ("TypeError: ..."), taken while the GIL is
// held: the simulator's threads carry only C++ exceptions, and ApiHeuristic
// (sim/plugin_heuristic.cc) prefixes the policy's name.
[[noreturn]] void Rethrow(py::error_already_set& e) {
  std::string text = e.what();
  e.restore();
  PyErr_Clear();
  throw std::runtime_error(text);
}

// A score returned by Python as the API's Cost: a float, or an int as an
// exact Int (simrd's LRU and the ablations return ints).
api::Cost ToCost(py::handle r) {
  if (PyFloat_Check(r.ptr())) return api::Cost::Float(PyFloat_AS_DOUBLE(r.ptr()));
  if (PyLong_Check(r.ptr()) && !PyBool_Check(r.ptr()))
    return api::Cost::Integer(PyToInt(r, "score"));
  throw std::runtime_error("score returned " +
                           std::string(py::str(py::type::handle_of(r).attr("__name__"))) +
                           ", expected an int or a float");
}

class PythonHeuristic : public api::Heuristic {
 public:
  PythonHeuristic(py::object score, py::object choose, api::Features features)
      : score_(std::move(score)), choose_(std::move(choose)), features_(features) {}
  ~PythonHeuristic() override {
    // Destroyed on a simulator thread: the references go under the GIL.
    py::gil_scoped_acquire gil;
    score_ = py::object();
    choose_ = py::object();
  }
  api::Features RequiredFeatures() const override { return features_; }

  api::Cost Score(api::StorageHandle s, api::View& view) override {
    py::gil_scoped_acquire gil;
    try {
      return ToCost(score_(s, py::cast(&view, py::return_value_policy::reference)));
    } catch (py::error_already_set& e) {
      Rethrow(e);
    }
  }

  api::StorageHandle Choose(api::View& view) override {
    if (!has_choose()) return api::kUseScores;
    py::gil_scoped_acquire gil;
    try {
      py::object r = choose_(py::cast(&view, py::return_value_policy::reference));
      if (r.is_none()) return api::kUseScores;
      if (!PyLong_Check(r.ptr()) || PyBool_Check(r.ptr()))
        throw std::runtime_error("choose returned " +
                                 std::string(py::str(py::type::handle_of(r).attr("__name__"))) +
                                 ", expected a storage (int) or None");
      return static_cast<api::StorageHandle>(PyToInt(r, "choose's storage"));
    } catch (py::error_already_set& e) {
      Rethrow(e);
    }
  }

 private:
  bool has_choose() const { return choose_ && !choose_.is_none(); }
  py::object score_, choose_;
  api::Features features_;
};

std::unique_ptr<api::Heuristic> MakePython(const std::string& name, Int seed) {
  py::gil_scoped_acquire gil;
  try {
    py::object factory = py::module_::import("dtrcheck._dtrcheck").attr("_factories")[name.c_str()];
    py::tuple t = factory(IntToPy(seed));
    if (t.size() != 3)
      throw std::runtime_error("the factory did not return (score, choose, features)");
    return std::make_unique<PythonHeuristic>(t[0], t[1], t[2].cast<api::Features>());
  } catch (py::error_already_set& e) {
    Rethrow(e);
  }
}

void Register(const std::string& name, const std::string& label) {
  if (IsPluginHeuristic(name) && PluginOrigin(name) == kOrigin)
    return;  // _factories has the new one
  try {
    RegisterApiHeuristic(name, label, kOrigin, [name](Int seed) { return MakePython(name, seed); });
  } catch (const std::exception& e) {
    throw CommandError(std::string("dtrcheck: ") + e.what());
  }
}

// A stamp as simrd keeps it: an int, or -math.inf before the first access.
py::object StampToPy(const api::Stamp& s) {
  if (s.minus_inf) return py::float_(-std::numeric_limits<double>::infinity());
  return IntToPy(s.value);
}

}  // namespace

void BindHeuristics(py::module_& m) {
  m.attr("_factories") = py::dict();
  m.def("register_heuristic", &Register, py::arg("name"), py::arg("label"),
        "Registers the Python policy _factories[name] under `name` (once; later calls "
        "replace the factory).");
  m.def("heuristic_names", &AllHeuristicNames, "simrd's heuristic names, then the registered ones");

  using api::View;
  auto h = [](py::handle s) { return static_cast<api::StorageHandle>(PyToInt(s, "storage")); };
  py::class_<View>(m, "View",
                   "What a policy reads during one eviction (include/dtrcheck/heuristic.h); "
                   "valid only during the call it is passed to.")
      .def(
          "clock", [](const View& v) { return IntToPy(v.Clock()); }, "rt.clock")
      .def("memory_usage", [](const View& v) { return IntToPy(v.MemoryUsage()); })
      .def(
          "budget", [](const View& v) { return IntToPy(v.Budget()); }, "negative: unbounded")
      .def("pool_slot_count", &View::PoolSlotCount)
      .def("pool_slot", &View::PoolSlot, "slot i of the pool; -1 for a hole")
      .def("pool_size", &View::PoolSize)
      .def("pool_nth", &View::PoolNth, "the i-th live storage of the pool")
      .def("size", [h](const View& v, py::handle s) { return IntToPy(v.Size(h(s))); })
      .def("compute", [h](const View& v, py::handle s) { return IntToPy(v.Compute(h(s))); })
      .def("region_compute",
           [h](const View& v, py::handle s) { return IntToPy(v.RegionCompute(h(s))); })
      .def("region_rev_compute",
           [h](const View& v, py::handle s) { return IntToPy(v.RegionRevCompute(h(s))); })
      .def("eq_class_compute",
           [h](View& v, py::handle s) { return IntToPy(v.EqClassCompute(h(s))); })
      .def(
          "last_access", [h](const View& v, py::handle s) { return StampToPy(v.LastAccess(h(s))); },
          "storage.last_access_int: an int, or -math.inf before the first access")
      .def("locked", [h](const View& v, py::handle s) { return v.Locked(h(s)); })
      .def("pinned", [h](const View& v, py::handle s) { return v.Pinned(h(s)); })
      .def("material", [h](const View& v, py::handle s) { return v.Material(h(s)); })
      .def(
          "true_divide",
          [](const View& v, py::handle a, py::handle b) {
            return v.TrueDivide(PyToInt(a, "a"), PyToInt(b, "b"));
          },
          "a / b as CPython rounds int / int (Python's own / on ints is the same)")
      .def(
          "true_divide_by_product",
          [](const View& v, py::handle a, py::handle b, py::handle c) {
            return v.TrueDivideByProduct(PyToInt(a, "a"), PyToInt(b, "b"), PyToInt(c, "c"));
          },
          "a / (b * c), the product exact")
      .def(
          "rand_below", [](View& v, py::handle n) { return IntToPy(v.RandBelow(PyToInt(n, "n"))); },
          "a random int in [0, n) from the run's seeded Python-compatible generator");
}

}  // namespace dtrcheck::python
