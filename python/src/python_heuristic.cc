#include "python_heuristic.h"

#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "dtrcheck/heuristic.h"
#include "plugins/plugin_heuristic.h"
#include "py_int.h"
#include "simrd_state.h"
#include "simulation.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

// The origin the registry records for heuristics registered from Python.
constexpr const char* kOrigin = "python";

// What Python holds of a View: cleared when the call returns, so that a
// policy that keeps it gets an error, not a dangling pointer.
class ViewRef {
 public:
  explicit ViewRef(api::View* view) : view_(view) {}
  api::View& get() const {
    if (!view_) throw std::runtime_error("the View is valid only during the call it was passed to");
    return *view_;
  }
  void Clear() { view_ = nullptr; }

 private:
  api::View* view_;
};

// Passes a ViewRef of `view` to f, and clears it afterwards.
template <typename F>
py::object WithView(api::View& view, F f) {
  py::object ref = py::cast(ViewRef(&view));
  struct Clear {
    py::object& ref;
    ~Clear() { ref.cast<ViewRef&>().Clear(); }
  } clear{ref};
  return f(ref);
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
      return ToCost(WithView(view, [&](py::object& ref) { return score_(s, ref); }));
    } catch (py::error_already_set& e) {
      Rethrow(e);
    }
  }

  api::StorageHandle Choose(api::View& view) override {
    if (!has_choose()) return api::kUseScores;
    py::gil_scoped_acquire gil;
    try {
      py::object r = WithView(view, [&](py::object& ref) { return choose_(ref); });
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
  if (IsSimrdAdapterName(name))
    throw CommandError("dtrcheck: heuristic " + name + " is a simrd class's (the simrd adapter's)");
  if (IsPluginHeuristic(name) && PluginOrigin(name) == kOrigin)
    return;  // _factories has the new one
  try {
    RegisterApiHeuristic(name, label, kOrigin, [name](Int seed) { return MakePython(name, seed); });
  } catch (const std::exception& e) {
    throw CommandError(std::string("dtrcheck: ") + e.what());
  }
}

}  // namespace

// The Python exception as text ("TypeError: ..."), taken while the GIL is
// held: the simulator's threads carry only C++ exceptions, and ApiHeuristic
// (plugins/plugin_heuristic.cc) prefixes the policy's name.
void Rethrow(py::error_already_set& e) {
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

py::object StampToPy(const api::Stamp& s) {
  if (s.minus_inf) return py::float_(-std::numeric_limits<double>::infinity());
  return IntToPy(s.value);
}

void BindHeuristics(py::module_& m) {
  m.attr("_factories") = py::dict();
  m.def("register_heuristic", &Register, py::arg("name"), py::arg("label"),
        "Registers the Python policy _factories[name] under `name` (once; later calls "
        "replace the factory).");
  m.def("heuristic_names", &AllHeuristicNames, "simrd's heuristic names, then the registered ones");

  using api::View;
  auto h = [](py::handle s) { return static_cast<api::StorageHandle>(PyToInt(s, "storage")); };
  py::class_<ViewRef>(m, "View",
                      "What a policy reads during one eviction (include/dtrcheck/heuristic.h); "
                      "valid only during the call it is passed to.")
      .def(
          "clock", [](const ViewRef& r) { return IntToPy(r.get().Clock()); }, "rt.clock")
      .def("memory_usage", [](const ViewRef& r) { return IntToPy(r.get().MemoryUsage()); })
      .def(
          "budget", [](const ViewRef& r) { return IntToPy(r.get().Budget()); },
          "negative: unbounded")
      .def("pool_slot_count", [](const ViewRef& r) { return r.get().PoolSlotCount(); })
      .def(
          "pool_slot",
          [](const ViewRef& r, size_t i) {
            if (i >= r.get().PoolSlotCount())
              throw py::index_error("pool_slot(" + std::to_string(i) + "): the pool has " +
                                    std::to_string(r.get().PoolSlotCount()) + " slots");
            return r.get().PoolSlot(i);
          },
          "slot i of the pool; -1 for a hole")
      .def("pool_size", [](const ViewRef& r) { return r.get().PoolSize(); })
      .def(
          "pool_nth",
          [](const ViewRef& r, size_t i) {
            if (i >= r.get().PoolSize())
              throw py::index_error("pool_nth(" + std::to_string(i) + "): the pool holds " +
                                    std::to_string(r.get().PoolSize()) + " storages");
            return r.get().PoolNth(i);
          },
          "the i-th live storage of the pool")
      .def("size", [h](const ViewRef& r, py::handle s) { return IntToPy(r.get().Size(h(s))); })
      .def("compute",
           [h](const ViewRef& r, py::handle s) { return IntToPy(r.get().Compute(h(s))); })
      .def("region_compute",
           [h](const ViewRef& r, py::handle s) { return IntToPy(r.get().RegionCompute(h(s))); })
      .def("region_rev_compute",
           [h](const ViewRef& r, py::handle s) { return IntToPy(r.get().RegionRevCompute(h(s))); })
      .def("eq_class_compute",
           [h](const ViewRef& r, py::handle s) { return IntToPy(r.get().EqClassCompute(h(s))); })
      .def(
          "last_access",
          [h](const ViewRef& r, py::handle s) { return StampToPy(r.get().LastAccess(h(s))); },
          "storage.last_access_int: an int, or -math.inf before the first access")
      .def("locked", [h](const ViewRef& r, py::handle s) { return r.get().Locked(h(s)); })
      .def("pinned", [h](const ViewRef& r, py::handle s) { return r.get().Pinned(h(s)); })
      .def("material", [h](const ViewRef& r, py::handle s) { return r.get().Material(h(s)); })
      .def(
          "true_divide",
          [](const ViewRef& r, py::handle a, py::handle b) {
            Int d = PyToInt(b, "b");
            if (d == 0) throw py::value_error("true_divide: division by zero");
            return r.get().TrueDivide(PyToInt(a, "a"), d);
          },
          "a / b as CPython rounds int / int (Python's own / on ints is the same)")
      .def(
          "true_divide_by_product",
          [](const ViewRef& r, py::handle a, py::handle b, py::handle c) {
            Int x = PyToInt(b, "b"), y = PyToInt(c, "c");
            if (x == 0 || y == 0) throw py::value_error("true_divide_by_product: division by zero");
            return r.get().TrueDivideByProduct(PyToInt(a, "a"), x, y);
          },
          "a / (b * c), the product exact")
      .def(
          "rand_below",
          [](const ViewRef& r, py::handle n) {
            Int v = PyToInt(n, "n");
            if (v <= 0 || v > INT64_MAX)
              throw py::value_error("rand_below(" + IntToString(v) + "): n must be in 1 .. 2^63-1");
            return IntToPy(r.get().RandBelow(v));
          },
          "a random int in [0, n) from the run's seeded Python-compatible generator");
}

}  // namespace dtrcheck::python
