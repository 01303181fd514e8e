#include "python_heuristic.h"

#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtrcheck/heuristic.h"
#include "plugins/plugin_heuristic.h"
#include "py_int.h"
#include "simrd_state.h"
#include "simulation.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

bool IsInt(py::handle r) { return PyLong_Check(r.ptr()) && !PyBool_Check(r.ptr()); }
std::string TypeName(py::handle r) { return py::str(py::type::handle_of(r).attr("__name__")); }

// The origin the registry records for heuristics registered from Python.
constexpr const char* kOrigin = "python";

// What Python holds of a View: cleared when the call returns, so that a
// policy that keeps it gets an error, not a dangling pointer. It knows the
// policy's features: the address queries are refused, with the Python
// method's name, to a policy that did not declare 'addresses' (under
// memory='bytes' such a policy is the only one that can call them: one that
// declares it is refused before the run, as in C++).
class ViewRef {
 public:
  ViewRef(api::View* view, api::Features features) : view_(view), features_(features) {}
  api::View& get() const {
    if (!view_) throw std::runtime_error("the View is valid only during the call it was passed to");
    return *view_;
  }
  api::View& addresses(const char* call) const {
    api::View& view = get();
    if (!(features_ & api::feature::kAddresses))
      throw std::runtime_error(std::string(call) +
                               ": the policy did not declare the 'addresses' feature (add it to "
                               "its features; it then runs under memory='arena' or "
                               "'cuda-caching' only)");
    return view;
  }
  void Clear() { view_ = nullptr; }

 private:
  api::View* view_;
  api::Features features_;
};

// Passes a ViewRef of `view` to f, and clears it afterwards.
template <typename F>
py::object WithView(api::View& view, api::Features features, F f) {
  py::object ref = py::cast(ViewRef(&view, features));
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
      return ToCost(WithView(view, features_, [&](py::object& ref) { return score_(s, ref); }));
    } catch (py::error_already_set& e) {
      Rethrow(e);
    }
  }

  // The simulator calls ChooseVictims (version 2); Choose is the same
  // decision when it is one storage.
  api::StorageHandle Choose(api::View& view) override {
    const std::vector<api::StorageHandle> victims = ChooseVictims(view);
    if (victims.size() != 1)
      throw std::runtime_error("choose returned " + std::to_string(victims.size()) +
                               " storages where one was expected");
    return victims[0];
  }

  // choose's answer: None (the scan over scores), a storage, or a list (or
  // tuple) of storages evicted in that order, as C++ ChooseVictims; [] evicts
  // nothing (the allocation fails).
  std::vector<api::StorageHandle> ChooseVictims(api::View& view) override {
    if (!has_choose()) return {api::kUseScores};
    py::gil_scoped_acquire gil;
    try {
      py::object r = WithView(view, features_, [&](py::object& ref) { return choose_(ref); });
      if (r.is_none()) return {api::kUseScores};
      if (IsInt(r)) return {static_cast<api::StorageHandle>(PyToInt(r, "choose's storage"))};
      if (!PyList_Check(r.ptr()) && !PyTuple_Check(r.ptr()))
        throw std::runtime_error("choose returned " + TypeName(r) +
                                 ", expected a storage (int), a list of storages or None");
      std::vector<api::StorageHandle> victims;
      size_t i = 0;
      for (py::handle item : r) {
        if (!IsInt(item))
          throw std::runtime_error("choose returned a " + TypeName(r) + " holding " +
                                   TypeName(item) + " at " + std::to_string(i) +
                                   ", expected storages (ints)");
        const Int v = PyToInt(item, "choose's storage");
        if (v < 0)
          throw std::runtime_error("choose returned a " + TypeName(r) + " holding " +
                                   IntToString(v) + " at " + std::to_string(i) +
                                   ", which is no storage (None, not a list, asks for the scan)");
        victims.push_back(static_cast<api::StorageHandle>(v));
        ++i;
      }
      return victims;
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

// The API's version-2 values, read-only, compared by value.
void BindAddressValues(py::module_& m) {
  m.attr("NO_STORAGE") = api::kNoStorage;
  py::class_<api::Block>(m, "Block",
                         "A block of the allocator model; size 0: not placed (api::Block)")
      .def_readonly("address", &api::Block::address)
      .def_readonly("size", &api::Block::size)
      .def_readonly("segment", &api::Block::segment)
      .def("__eq__",
           [](const api::Block& a, const api::Block& b) {
             return a.address == b.address && a.size == b.size && a.segment == b.segment;
           })
      .def("__repr__", [](const api::Block& b) {
        return "Block(address=" + std::to_string(b.address) + ", size=" + std::to_string(b.size) +
               ", segment=" + std::to_string(b.segment) + ")";
      });
  py::class_<api::FreeAdjacent>(m, "FreeAdjacent",
                                "Free bytes left and right of a block, within its segment")
      .def_readonly("left", &api::FreeAdjacent::left)
      .def_readonly("right", &api::FreeAdjacent::right)
      .def("__eq__",
           [](const api::FreeAdjacent& a, const api::FreeAdjacent& b) {
             return a.left == b.left && a.right == b.right;
           })
      .def("__repr__", [](const api::FreeAdjacent& f) {
        return "FreeAdjacent(left=" + std::to_string(f.left) +
               ", right=" + std::to_string(f.right) + ")";
      });
  py::class_<api::Request>(m, "Request",
                           "What the runtime evicts for: placement, the allocator refused "
                           "`bytes`; else `bytes` over the budget (api::Request)")
      .def_property_readonly("bytes", [](const api::Request& r) { return IntToPy(r.bytes); })
      .def_readonly("placement", &api::Request::placement)
      .def("__eq__",
           [](const api::Request& a, const api::Request& b) {
             return a.bytes == b.bytes && a.placement == b.placement;
           })
      .def("__repr__", [](const api::Request& r) {
        return "Request(bytes=" + IntToString(r.bytes) +
               ", placement=" + (r.placement ? "True" : "False") + ")";
      });
  py::class_<api::Piece>(m, "Piece",
                         "A piece of the allocator's memory: free (storage NO_STORAGE) or "
                         "allocated (api::Piece)")
      .def_readonly("address", &api::Piece::address)
      .def_readonly("size", &api::Piece::size)
      .def_readonly("segment", &api::Piece::segment)
      .def_readonly("allocated", &api::Piece::allocated)
      .def_readonly("storage", &api::Piece::storage)
      .def("__eq__",
           [](const api::Piece& a, const api::Piece& b) {
             return a.address == b.address && a.size == b.size && a.segment == b.segment &&
                    a.allocated == b.allocated && a.storage == b.storage;
           })
      .def("__repr__", [](const api::Piece& p) {
        return "Piece(address=" + std::to_string(p.address) + ", size=" + std::to_string(p.size) +
               ", segment=" + std::to_string(p.segment) +
               ", allocated=" + (p.allocated ? "True" : "False") +
               ", storage=" + std::to_string(p.storage) + ")";
      });
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
  if (IsInt(r)) return api::Cost::Integer(PyToInt(r, "score"));
  throw std::runtime_error("score returned " + TypeName(r) + ", expected an int or a float");
}

py::object StampToPy(const api::Stamp& s) {
  if (s.minus_inf) return py::float_(-std::numeric_limits<double>::infinity());
  return IntToPy(s.value);
}

void BindHeuristics(py::module_& m) {
  BindAddressValues(m);
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
          "a random int in [0, n) from the run's seeded Python-compatible generator")
      // Version 2.
      .def(
          "recompute_count",
          [h](const ViewRef& r, py::handle s) { return r.get().RecomputeCount(h(s)); },
          "how many times s was rematerialized so far in this run")
      .def(
          "pending_request", [](const ViewRef& r) { return r.get().PendingRequest(); },
          "what the runtime is evicting for (a Request)")
      .def(
          "block_of",
          [h](const ViewRef& r, py::handle s) { return r.addresses("block_of(s)").BlockOf(h(s)); },
          "s's Block (size 0: not placed); needs the 'addresses' feature")
      .def(
          "free_bytes_adjacent",
          [h](const ViewRef& r, py::handle s) {
            return r.addresses("free_bytes_adjacent(s)").FreeBytesAdjacent(h(s));
          },
          "the free bytes beside s's block in its segment (a FreeAdjacent); needs 'addresses'")
      .def(
          "pieces", [](const ViewRef& r) { return r.addresses("pieces()").Pieces(); },
          "every Piece in address order, free or a storage's; needs 'addresses'");
}

}  // namespace dtrcheck::python
