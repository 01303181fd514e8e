#include "simrd_state.h"

#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "plugins/plugin_heuristic.h"
#include "py_int.h"
#include "python_heuristic.h"
#include "sim/heuristic.h"
#include "sim/runtime.h"
#include "simulation.h"

namespace py = pybind11;

namespace dtrcheck::python {

namespace {

// The origin the registry records, as for the other Python policies.
constexpr const char* kOrigin = "python";

std::set<std::string>& AdapterNames() {
  static std::set<std::string> names;
  return names;
}

// The Runtime as simrd's objects lay it out, for the adapter's proxies
// (simrd_adapter.py): storages and tensors by dtrcheck's ids (a tensor's id
// is simrd's; a storage's root_id is simrd's number for it), EqClassNodes by
// the forest's node ids. Bound to a Runtime only while the simulator calls
// the class; otherwise every read is an error, not a dangling pointer.
class SimrdState {
 public:
  Runtime& rt() const {
    if (!rt_)
      throw std::runtime_error(
          "simrd adapter: the runtime is readable only during evaluate and choose");
    return *rt_;
  }
  Runtime* Bind(Runtime* rt) { return std::exchange(rt_, rt); }

  const Storage& storage(int64_t s) const {
    const auto& all = rt().storages();
    if (s < 0 || static_cast<size_t>(s) >= all.size())
      throw py::index_error("simrd adapter: no storage " + std::to_string(s));
    return all[s];
  }
  const Tensor& tensor(int64_t t) const {
    const auto& all = rt().tensors();
    if (t < 0 || static_cast<size_t>(t) >= all.size())
      throw py::index_error("simrd adapter: no tensor " + std::to_string(t));
    return all[t];
  }
  EqNodeId node(int64_t n) const {
    if (n < 0 || static_cast<size_t>(n) >= rt().eq_forest().size())
      throw py::index_error("simrd adapter: no EqClassNode " + std::to_string(n));
    return static_cast<EqNodeId>(n);
  }

 private:
  Runtime* rt_ = nullptr;
};

template <typename Ids>
py::list ToList(const Ids& ids) {
  py::list out(ids.size());
  size_t i = 0;
  for (auto id : ids) out[i++] = py::int_(id);
  return out;
}

py::object ToPy(const Stamp& s) { return StampToPy(api::Stamp{s.minus_inf, s.value}); }

// A simrd class as a simulator heuristic: evaluate(storage) scores, and
// choose() (when the class defines its own) picks; neither counts
// anything here (the class's code does, through the state).
class SimrdClassHeuristic : public Heuristic {
 public:
  SimrdClassHeuristic(std::string name, std::string label, py::object evaluate, py::object choose,
                      py::object state, Features features)
      : name_(std::move(name)),
        label_(std::move(label)),
        whose_("plugin " + std::string(kOrigin) + ": heuristic " + name_ + ": "),
        evaluate_(std::move(evaluate)),
        choose_(std::move(choose)),
        state_object_(std::move(state)),
        state_(&state_object_.cast<SimrdState&>()),
        features_(features) {}
  ~SimrdClassHeuristic() override {
    // Destroyed on a simulator thread: the references go under the GIL.
    py::gil_scoped_acquire gil;
    evaluate_ = choose_ = state_object_ = py::object();
  }
  std::string Name() const override { return name_; }
  std::string Label() const override { return label_; }
  Features RequiredFeatures() const override { return features_; }

  Cost Evaluate(StorageId s, Runtime& rt) override {
    py::gil_scoped_acquire gil;
    return Guard("Score", rt, [&] { return ToCost(evaluate_(s)); });
  }

  StorageId Choose(Runtime& rt) override {
    if (choose_.is_none()) return Heuristic::Choose(rt);  // simrd's Heuristic.choose
    StorageId s;
    {
      py::gil_scoped_acquire gil;
      s = Guard("Choose", rt, [&] {
        py::object r = choose_();
        if (!PyLong_Check(r.ptr()) || PyBool_Check(r.ptr()))
          throw std::runtime_error("choose returned " +
                                   std::string(py::str(py::type::handle_of(r).attr("__name__"))) +
                                   ", expected a storage");
        return static_cast<StorageId>(PyToInt(r, "choose's storage"));
      });
    }
    if (s < 0 || static_cast<size_t>(s) >= rt.storages().size() || rt.storages()[s].pool_slot < 0)
      throw PluginError(whose_ + "Choose returned storage " + std::to_string(s) +
                        ", which is not in the evictable pool");
    return s;
  }

 private:
  // Runs f with the state bound to rt; any failure becomes a PluginError
  // naming the class, as an API heuristic's does (plugins/plugin_heuristic.cc).
  template <typename F>
  auto Guard(const char* what, Runtime& rt, F f) -> decltype(f()) {
    struct Binding {
      SimrdState* state;
      Runtime* saved;
      ~Binding() { state->Bind(saved); }
    } binding{state_, state_->Bind(&rt)};
    try {
      try {
        return f();
      } catch (py::error_already_set& e) {
        Rethrow(e);
      }
    } catch (const std::exception& e) {
      throw PluginError(whose_ + what + " threw: " + e.what());
    }
  }

  std::string name_, label_, whose_;
  py::object evaluate_, choose_, state_object_;
  SimrdState* state_;
  Features features_;
};

std::unique_ptr<Heuristic> MakeSimrd(const std::string& name, const std::string& label, Int seed) {
  py::gil_scoped_acquire gil;
  const std::string whose = "plugin " + std::string(kOrigin) + ": heuristic " + name + ": ";
  try {
    try {
      py::object state = py::cast(SimrdState());
      py::object factory =
          py::module_::import("dtrcheck._dtrcheck").attr("_simrd_factories")[name.c_str()];
      py::tuple t = factory(IntToPy(seed), state);
      if (t.size() != 3)
        throw std::runtime_error("the factory did not return (evaluate, choose, features)");
      return std::make_unique<SimrdClassHeuristic>(name, label, t[0], t[1], state,
                                                   t[2].cast<Features>());
    } catch (py::error_already_set& e) {
      Rethrow(e);
    }
  } catch (const std::exception& e) {
    throw PluginError(whose + "its factory threw: " + e.what());
  }
}

void Register(const std::string& name, const std::string& label) {
  if (IsSimrdAdapterName(name)) return;  // _simrd_factories has the new one
  try {
    RegisterHeuristic(
        name, label, [name, label](Int seed) { return MakeSimrd(name, label, seed); }, kOrigin);
  } catch (const std::exception& e) {
    throw CommandError(std::string("dtrcheck: ") + e.what());
  }
  AdapterNames().insert(name);
}

}  // namespace

bool IsSimrdAdapterName(const std::string& name) { return AdapterNames().count(name) > 0; }

void BindSimrdState(py::module_& m) {
  m.attr("_simrd_factories") = py::dict();
  m.def("register_simrd_heuristic", &Register, py::arg("name"), py::arg("label"),
        "Registers the simrd class of _simrd_factories[name] under `name` (once; later "
        "calls replace the factory).");

  using S = SimrdState;
  py::class_<S>(m, "SimrdState",
                "The simulator's runtime as simrd's heuristic classes read it (the simrd "
                "adapter's proxies call it); bound only during evaluate and choose.")
      .def("clock", [](const S& st) { return IntToPy(st.rt().clock()); })
      .def("memory_usage", [](const S& st) { return IntToPy(st.rt().memory_usage()); })
      .def(
          "budget",
          [](const S& st) -> py::object {
            const auto& b = st.rt().budget();
            if (!b) return py::float_(std::numeric_limits<double>::infinity());
            return IntToPy(*b);
          },
          "an int, or math.inf when unbounded")
      .def("pool_size", [](const S& st) { return st.rt().pool().size(); })
      .def("pool_nth",
           [](const S& st, size_t i) {
             if (i >= st.rt().pool().size())
               throw py::index_error("storage_pool index out of range");
             return st.rt().PoolNth(i);
           })
      .def("size", [](const S& st, int64_t s) { return IntToPy(st.storage(s).size); })
      .def("compute", [](const S& st, int64_t s) { return IntToPy(st.storage(s).compute); })
      .def("material", [](const S& st, int64_t s) { return st.storage(s).material; })
      .def("pinned", [](const S& st, int64_t s) { return st.storage(s).pinned; })
      .def("ref_int", [](const S& st, int64_t s) { return st.storage(s).ref_int; })
      .def("ref_ext", [](const S& st, int64_t s) { return st.storage(s).ref_ext; })
      .def("root_id", [](const S& st, int64_t s) { return st.storage(s).root_id; })
      .def("last_access_int",
           [](const S& st, int64_t s) { return ToPy(st.storage(s).last_access_int); })
      .def("last_access", [](const S& st, int64_t s) { return ToPy(st.storage(s).last_access); })
      .def("last_evict", [](const S& st, int64_t s) { return ToPy(st.storage(s).last_evict); })
      .def("region_compute",
           [](const S& st, int64_t s) {
             st.storage(s);
             return IntToPy(st.rt().RegionOf(static_cast<StorageId>(s)).compute);
           })
      .def("region_rev_compute",
           [](const S& st, int64_t s) {
             st.storage(s);
             return IntToPy(st.rt().RegionRevOf(static_cast<StorageId>(s)).compute);
           })
      .def(
          "tensors",
          [](const S& st, int64_t s) {
            st.storage(s);
            return ToList(st.rt().TensorsOf(static_cast<StorageId>(s)));
          },
          "s.tensors: tensor ids, the root first")
      .def("parents",
           [](const S& st, int64_t t) {
             st.tensor(t);
             return ToList(st.rt().Parents(static_cast<TensorId>(t)));
           })
      .def("children",
           [](const S& st, int64_t t) {
             st.tensor(t);
             return ToList(st.rt().Children(static_cast<TensorId>(t)));
           })
      .def("tensor_storage", [](const S& st, int64_t t) { return st.tensor(t).storage; })
      .def("tensor_defined", [](const S& st, int64_t t) { return st.tensor(t).defined; })
      .def("tensor_count", [](const S& st) { return st.rt().tensors().size(); })
      .def(
          "ecn",
          [](const S& st, int64_t s) -> py::object {
            const Storage& x = st.storage(s);
            switch (x.ecn_state) {
              case EcnState::kAbsent:
                throw py::key_error("ecn");
              case EcnState::kNone:
                return py::none();
              case EcnState::kNode:
                break;
            }
            return py::int_(x.ecn);
          },
          "s.meta['ecn']: its EqClassNode's id, None, or KeyError when the runtime keeps none")
      .def(
          "ecn_parent",
          [](const S& st, int64_t n) { return st.rt().eq_forest().Parent(st.node(n)); },
          "EqClassNode._parent: a node id, -1 for a root")
      .def("set_ecn_parent",
           [](S& st, int64_t n, int64_t parent) {
             EqNodeId p = parent < 0 ? EqNodeId(-1) : st.node(parent);
             st.rt().eq_forest().SetParent(st.node(n), p);
           })
      .def(
          "ecn_value",
          [](const S& st, int64_t n) { return IntToPy(st.rt().eq_forest().RootValue(st.node(n))); },
          "EqClassNode._value's compute (the class's, at a root)")
      .def_property(
          "heuristic_eval_count",
          [](const S& st) { return IntToPy(st.rt().summary().heuristic_eval_count); },
          [](S& st, py::handle v) {
            st.rt().summary().heuristic_eval_count = PyToInt(v, "heuristic_eval_count");
          })
      .def_property(
          "heuristic_access_count",
          [](const S& st) { return IntToPy(st.rt().summary().heuristic_access_count); },
          [](S& st, py::handle v) {
            st.rt().summary().heuristic_access_count = PyToInt(v, "heuristic_access_count");
          });
}

}  // namespace dtrcheck::python
