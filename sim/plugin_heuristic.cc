#include "sim/plugin_heuristic.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "sim/py_random.h"
#include "sim/runtime.h"

namespace dtrcheck {

// The public feature bits are the simulator's.
static_assert(api::feature::kRegions == feature::kRegions &&
              api::feature::kEqClass == feature::kEqClass &&
              api::feature::kLastAccessInt == feature::kLastAccessInt &&
              api::feature::kBanishing == feature::kBanishing);

namespace {

api::Stamp ToApi(const Stamp& s) { return api::Stamp{s.minus_inf, s.value}; }

// The View a plugin reads: a window on one Runtime during one Choose.
class RuntimeView : public api::View {
 public:
  RuntimeView(Runtime& rt, PyRandom& random) : rt_(rt), random_(random) {}
  Int Clock() const override { return rt_.clock(); }
  Int MemoryUsage() const override { return rt_.memory_usage(); }
  Int Budget() const override { return rt_.budget() ? *rt_.budget() : Int(-1); }
  size_t PoolSlotCount() const override { return rt_.pool().slots().size(); }
  api::StorageHandle PoolSlot(size_t i) const override { return rt_.pool().slots().at(i); }
  size_t PoolSize() const override { return rt_.pool().size(); }
  api::StorageHandle PoolNth(size_t i) override { return rt_.PoolNth(i); }
  Int Size(api::StorageHandle s) const override { return at(s).size; }
  Int Compute(api::StorageHandle s) const override { return at(s).compute; }
  Int RegionCompute(api::StorageHandle s) const override {
    at(s);  // checks the handle
    return rt_.RegionOf(s).compute;
  }
  Int RegionRevCompute(api::StorageHandle s) const override {
    at(s);
    return rt_.RegionRevOf(s).compute;
  }
  Int EqClassCompute(api::StorageHandle s) override {
    at(s);  // checks the handle
    return EqClassTerm(s, rt_, &eq_scratch_);
  }
  api::Stamp LastAccess(api::StorageHandle s) const override {
    return ToApi(at(s).last_access_int);
  }
  bool Locked(api::StorageHandle s) const override { return at(s).ref_int > 0; }
  bool Pinned(api::StorageHandle s) const override { return at(s).pinned; }
  bool Material(api::StorageHandle s) const override { return at(s).material; }
  double TrueDivide(Int a, Int b) const override { return dtrcheck::TrueDivide(a, b); }
  double TrueDivideByProduct(Int a, Int b, Int c) const override {
    return dtrcheck::TrueDivideByProduct(a, b, c);
  }
  Int RandBelow(Int n) override {
    return static_cast<Int>(random_.RandBelow(static_cast<uint64_t>(n)));
  }

 private:
  const Storage& at(api::StorageHandle s) const {
    if (s < 0 || static_cast<size_t>(s) >= rt_.storages().size())
      throw std::out_of_range("no storage " + std::to_string(s));
    return rt_.storages()[s];
  }
  Runtime& rt_;
  PyRandom& random_;
  EqClassScratch eq_scratch_;
};

// The simulator's Heuristic around an API heuristic. Every exception out of
// the plugin becomes a PluginError naming the heuristic, so that a sweep
// stops with a message instead of a crash.
class ApiHeuristic : public Heuristic {
 public:
  ApiHeuristic(std::string name, std::string label, std::unique_ptr<api::Heuristic> impl, Int seed)
      : name_(std::move(name)), label_(std::move(label)), impl_(std::move(impl)), random_(seed) {}
  std::string Name() const override { return name_; }
  std::string Label() const override { return label_; }
  Features RequiredFeatures() const override {
    return Guard("RequiredFeatures", [&] { return impl_->RequiredFeatures(); });
  }
  Cost Evaluate(StorageId s, Runtime& rt) override {
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    RuntimeView view(rt, random_);
    return Guard("Score", [&] { return impl_->Score(s, view); });
  }
  StorageId Choose(Runtime& rt) override {
    RuntimeView view(rt, random_);
    api::StorageHandle s = Guard("Choose", [&] { return impl_->Choose(view); });
    if (s == api::kUseScores) return Heuristic::Choose(rt);
    if (s < 0 || static_cast<size_t>(s) >= rt.storages().size() || rt.storages()[s].pool_slot < 0)
      throw PluginError("heuristic " + name_ + ": Choose returned storage " + std::to_string(s) +
                        ", which is not in the evictable pool");
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    return s;
  }

 private:
  template <typename F>
  auto Guard(const char* what, F f) const -> decltype(f()) {
    try {
      return f();
    } catch (const PluginError&) {
      throw;
    } catch (const std::exception& e) {
      throw PluginError("heuristic " + name_ + ": " + what + " threw: " + e.what());
    } catch (...) {
      throw PluginError("heuristic " + name_ + ": " + what + " threw a non-standard exception");
    }
  }
  std::string name_, label_;
  std::unique_ptr<api::Heuristic> impl_;
  PyRandom random_;
};

struct Registered {
  std::string label, origin;
  ApiFactory make;
};

std::map<std::string, Registered>& Registry() {
  static std::map<std::string, Registered> r;
  return r;
}
std::vector<std::string>& Names() {
  static std::vector<std::string> n;
  return n;
}

class LoaderRegistrar : public api::Registrar {
 public:
  explicit LoaderRegistrar(std::string origin) : origin_(std::move(origin)) {}
  void Add(const std::string& name, const std::string& label, ApiFactory make) override {
    RegisterApiHeuristic(name, label, origin_, std::move(make));
  }

 private:
  std::string origin_;
};

}  // namespace

void RegisterApiHeuristic(const std::string& name, const std::string& label,
                          const std::string& origin, ApiFactory make) {
  bool builtin = name == "Heuristic";
  for (const auto& n : HeuristicNames()) builtin = builtin || n == name;
  if (builtin)
    throw PluginError(origin + ": heuristic name \"" + name +
                      "\" clashes with a built-in (simrd) heuristic");
  auto it = Registry().find(name);
  if (it != Registry().end())
    throw PluginError(origin + ": heuristic name \"" + name + "\" is already registered by " +
                      it->second.origin);
  if (name.empty()) throw PluginError(origin + ": a heuristic with an empty name");
  Registry()[name] = Registered{label, origin, std::move(make)};
  Names().push_back(name);
}

const std::vector<std::string>& PluginHeuristicNames() { return Names(); }

bool IsPluginHeuristic(const std::string& name) { return Registry().count(name) != 0; }

std::string PluginOrigin(const std::string& name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? "" : it->second.origin;
}

std::vector<std::string> AllHeuristicNames() {
  std::vector<std::string> v = HeuristicNames();
  v.insert(v.end(), Names().begin(), Names().end());
  return v;
}

std::unique_ptr<Heuristic> MakePluginHeuristic(const std::string& name, Int seed) {
  auto it = Registry().find(name);
  if (it == Registry().end()) return nullptr;
  std::unique_ptr<api::Heuristic> impl;
  try {
    impl = it->second.make(seed);
  } catch (const std::exception& e) {
    throw PluginError("heuristic " + name + ": its factory threw: " + e.what());
  }
  if (!impl) throw PluginError("heuristic " + name + ": its factory returned no heuristic");
  return std::make_unique<ApiHeuristic>(name, it->second.label, std::move(impl), seed);
}

void LoadPlugin(const std::string& path) {
  static std::vector<std::string> loaded;
  std::error_code ec;
  std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
  if (ec || !std::filesystem::exists(path)) throw PluginError("plugin " + path + ": no such file");
  for (const auto& p : loaded)
    if (p == canonical) return;
  // RTLD_LOCAL: two plugins may define the same internal symbols.
  void* lib = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw PluginError("plugin " + path + ": cannot load: " + dlerror());
  using AbiFn = int (*)();
  using RegisterFn = void (*)(api::Registrar&);
  auto abi = reinterpret_cast<AbiFn>(dlsym(lib, DTRCHECK_PLUGIN_ABI_SYMBOL));
  auto reg = reinterpret_cast<RegisterFn>(dlsym(lib, DTRCHECK_PLUGIN_REGISTER_SYMBOL));
  if (!abi || !reg)
    throw PluginError("plugin " + path + ": not a dtrcheck plugin (no " +
                      (abi ? DTRCHECK_PLUGIN_REGISTER_SYMBOL : DTRCHECK_PLUGIN_ABI_SYMBOL) +
                      " entry point; define it with DTRCHECK_PLUGIN from dtrcheck/heuristic.h)");
  if (int v = abi(); v != api::kAbiVersion)
    throw PluginError("plugin " + path + ": built for plugin ABI version " + std::to_string(v) +
                      ", this dtrcheck has version " + std::to_string(api::kAbiVersion) +
                      "; rebuild it against this dtrcheck's headers");
  loaded.push_back(canonical);
  LoaderRegistrar registrar(path);
  try {
    reg(registrar);
  } catch (const PluginError&) {
    throw;
  } catch (const std::exception& e) {
    throw PluginError("plugin " + path + ": its registration threw: " + e.what());
  }
}

void LoadPlugins(const std::vector<std::string>& paths) {
  std::vector<std::string> all;
  if (const char* env = std::getenv("DTRCHECK_PLUGINS")) {
    std::string list = env;
    for (size_t start = 0; start <= list.size();) {
      size_t end = std::min(list.find(':', start), list.size());
      if (end > start) all.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  all.insert(all.end(), paths.begin(), paths.end());
  for (const auto& p : all) LoadPlugin(p);
}

}  // namespace dtrcheck
