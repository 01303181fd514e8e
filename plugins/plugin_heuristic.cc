#include "plugins/plugin_heuristic.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/fatal_signal_cleanup.h"
#include "policies/address_policies.h"
#include "sim/python/py_random.h"
#include "sim/runtime.h"

namespace dtrcheck {

// The public feature bits are the simulator's.
static_assert(api::feature::kRegions == feature::kRegions &&
              api::feature::kEqClass == feature::kEqClass &&
              api::feature::kLastAccessInt == feature::kLastAccessInt &&
              api::feature::kBanishing == feature::kBanishing &&
              api::feature::kAddresses == feature::kAddresses);

namespace {

api::Stamp ToApi(const Stamp& s) { return api::Stamp{s.minus_inf, s.value}; }

// What a plugin is running on this thread, for the fatal-signal handler: a
// message formatted before the call (the handler may only write(2) it).
struct Running {
  const char* message = nullptr;
  size_t length = 0;
};
thread_local Running t_running;

void EnsureAlternateStack();

// Marks a call into a plugin for its duration (nested calls restore the
// outer mark). `message` must outlive the scope.
class RunningScope {
 public:
  explicit RunningScope(const std::string& message) : saved_(t_running) {
    EnsureAlternateStack();
    t_running = Running{message.data(), message.size()};
  }
  ~RunningScope() { t_running = saved_; }
  RunningScope(const RunningScope&) = delete;
  RunningScope& operator=(const RunningScope&) = delete;

 private:
  Running saved_;
};

// "plugin PATH: heuristic NAME: " — every message about a plugin's heuristic
// starts so.
std::string Whose(const std::string& origin, const std::string& name) {
  return (origin.empty() ? "" : "plugin " + origin + ": ") + "heuristic " + name + ": ";
}

// The message the fatal-signal handler prints after "dtrcheck: SIGNAL ".
std::string CrashMessage(const std::string& whose, const std::string& what) {
  return "inside " + whose + what +
         " (a bug in the plugin; outputs finished before this run are kept)\n";
}

// The View a plugin reads: a window on one Runtime during one call. Every
// call checks its arguments (a plugin's mistake is an error naming the call,
// never a hang or an out-of-bounds read); the heuristic's Guard adds the
// plugin and heuristic.
class RuntimeView : public api::View {
 public:
  RuntimeView(Runtime& rt, PyRandom& random) : rt_(rt), random_(random) {}
  Int Clock() const override { return rt_.clock(); }
  Int MemoryUsage() const override { return rt_.memory_usage(); }
  Int Budget() const override { return rt_.budget() ? *rt_.budget() : Int(-1); }
  size_t PoolSlotCount() const override { return rt_.pool().slots().size(); }
  api::StorageHandle PoolSlot(size_t i) const override {
    if (i >= rt_.pool().slots().size())
      throw std::out_of_range("View::PoolSlot(" + std::to_string(i) +
                              ") is past the pool's end (PoolSlotCount() is " +
                              std::to_string(rt_.pool().slots().size()) + ")");
    return rt_.pool().slots()[i];
  }
  size_t PoolSize() const override { return rt_.pool().size(); }
  api::StorageHandle PoolNth(size_t i) override {
    if (i >= rt_.pool().size())
      throw std::out_of_range("View::PoolNth(" + std::to_string(i) +
                              ") is past the pool's end (PoolSize() is " +
                              std::to_string(rt_.pool().size()) + ")");
    return rt_.PoolNth(i);
  }
  Int Size(api::StorageHandle s) const override { return at(s, "Size").size; }
  Int Compute(api::StorageHandle s) const override { return at(s, "Compute").compute; }
  Int RegionCompute(api::StorageHandle s) const override {
    at(s, "RegionCompute");
    return rt_.RegionOf(s).compute;
  }
  Int RegionRevCompute(api::StorageHandle s) const override {
    at(s, "RegionRevCompute");
    return rt_.RegionRevOf(s).compute;
  }
  Int EqClassCompute(api::StorageHandle s) override {
    at(s, "EqClassCompute");
    return EqClassTerm(s, rt_, &eq_scratch_);
  }
  // Version 2.
  int64_t RecomputeCount(api::StorageHandle s) const override {
    at(s, "RecomputeCount");
    return rt_.recompute_count(s);
  }
  api::Request PendingRequest() const override {
    return api::Request{rt_.request_bytes(), rt_.request_is_placement()};
  }
  api::Block BlockOf(api::StorageHandle s) const override {
    at(s, "BlockOf");
    const memory::Block b = placed("BlockOf").BlockOf(s);
    return api::Block{b.address, b.size, b.segment};
  }
  api::FreeAdjacent FreeBytesAdjacent(api::StorageHandle s) const override {
    at(s, "FreeBytesAdjacent");
    const PlacedMemory& placed_memory = placed("FreeBytesAdjacent");
    const memory::Block b = placed_memory.BlockOf(s);
    if (b.size == 0) return {};
    const auto [left, right] = placed_memory.allocator().FreeBytesBeside(b.address);
    return api::FreeAdjacent{left, right};
  }
  std::vector<api::Piece> Pieces() const override {
    const PlacedMemory& placed_memory = placed("Pieces");
    std::vector<api::Piece> out;
    for (const memory::Piece& p : placed_memory.allocator().Pieces())
      out.push_back(api::Piece{p.address, p.size, p.segment, p.allocated,
                               p.allocated ? placed_memory.StorageAt(p.address) : api::kNoStorage});
    return out;
  }

  api::Stamp LastAccess(api::StorageHandle s) const override {
    return ToApi(at(s, "LastAccess").last_access_int);
  }
  bool Locked(api::StorageHandle s) const override { return at(s, "Locked").ref_int > 0; }
  bool Pinned(api::StorageHandle s) const override { return at(s, "Pinned").pinned; }
  bool Material(api::StorageHandle s) const override { return at(s, "Material").material; }
  // Python raises ZeroDivisionError; the division itself assumes b != 0.
  double TrueDivide(Int a, Int b) const override {
    if (b == 0) throw std::domain_error("View::TrueDivide(a, 0): division by zero");
    return dtrcheck::TrueDivide(a, b);
  }
  double TrueDivideByProduct(Int a, Int b, Int c) const override {
    if (b == 0 || c == 0)
      throw std::domain_error("View::TrueDivideByProduct(a, b, c): division by zero (b * c == 0)");
    return dtrcheck::TrueDivideByProduct(a, b, c);
  }
  // Python's randrange(0, n) raises for n <= 0 ("empty range for
  // randrange()"); the generator draws 64 bits at most.
  Int RandBelow(Int n) override {
    if (n <= 0)
      throw std::invalid_argument("View::RandBelow(" + IntToString(n) +
                                  "): empty range for randrange() (n must be >= 1)");
    if (n > static_cast<Int>(std::numeric_limits<uint64_t>::max()))
      throw std::invalid_argument("View::RandBelow(" + IntToString(n) + "): n must be below 2^64");
    return static_cast<Int>(random_.RandBelow(static_cast<uint64_t>(n)));
  }

 private:
  const Storage& at(api::StorageHandle s, const char* call) const {
    if (s < 0 || static_cast<size_t>(s) >= rt_.storages().size())
      throw std::out_of_range("View::" + std::string(call) + "(" + std::to_string(s) +
                              "): no storage " + std::to_string(s) + " (handles are 0.." +
                              std::to_string(static_cast<int64_t>(rt_.storages().size()) - 1) +
                              ")");
    return rt_.storages()[s];
  }
  const PlacedMemory& placed(const char* call) const {
    if (rt_.placed_memory() == nullptr)
      throw std::logic_error("View::" + std::string(call) +
                             ": --memory bytes has no addresses (declare feature::kAddresses, "
                             "and run with --memory cuda-caching or --memory arena)");
    return *rt_.placed_memory();
  }
  Runtime& rt_;
  PyRandom& random_;
  EqClassScratch eq_scratch_;
};

// The simulator's Heuristic around an API heuristic. Every exception out of
// the plugin, standard or not, becomes a PluginError naming the plugin and
// the heuristic, so that a sweep stops with a message instead of a crash;
// a fatal signal inside it names them too (InstallCrashReport).
class ApiHeuristic : public Heuristic {
 public:
  ApiHeuristic(std::string name, std::string label, const std::string& origin,
               std::unique_ptr<api::Heuristic> impl, Int seed, int abi_version)
      : abi_version_(abi_version),
        name_(std::move(name)),
        label_(std::move(label)),
        whose_(Whose(origin, name_)),
        crash_features_(CrashMessage(whose_, "RequiredFeatures")),
        crash_score_(CrashMessage(whose_, "Score")),
        crash_choose_(CrashMessage(whose_, "Choose")),
        crash_choose_victims_(CrashMessage(whose_, "ChooseVictims or Choose")),
        crash_destroy_(CrashMessage(whose_, "its destructor")),
        impl_(std::move(impl)),
        random_(seed) {}
  // The plugin's destructor is plugin code too (it cannot throw: that is
  // std::terminate, a SIGABRT the handler names).
  ~ApiHeuristic() override {
    RunningScope running(crash_destroy_);
    impl_.reset();
  }
  std::string Name() const override { return name_; }
  std::string Label() const override { return label_; }
  Features RequiredFeatures() const override {
    return Guard("RequiredFeatures", crash_features_, [&] { return impl_->RequiredFeatures(); });
  }
  Cost Evaluate(StorageId s, Runtime& rt) override {
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    RuntimeView view(rt, random_);
    return Guard("Score", crash_score_, [&] { return impl_->Score(s, view); });
  }
  StorageId Choose(Runtime& rt) override {
    RuntimeView view(rt, random_);
    api::StorageHandle s = Guard("Choose", crash_choose_, [&] { return impl_->Choose(view); });
    if (s == api::kUseScores) return Heuristic::Choose(rt);
    if (s < 0 || static_cast<size_t>(s) >= rt.storages().size() || rt.storages()[s].pool_slot < 0)
      throw PluginError(whose_ + "Choose returned storage " + std::to_string(s) +
                        ", which is not in the evictable pool");
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    return s;
  }
  // A version-1 plugin has no ChooseVictims (its vtable ends at Choose): it
  // gets Choose's one victim, as before version 2.
  void ChooseVictims(Runtime& rt, StorageList* victims) override {
    if (abi_version_ < 2) {
      victims->push_back(Choose(rt));
      return;
    }
    RuntimeView view(rt, random_);
    const std::vector<api::StorageHandle> chosen =
        Guard("Choose", crash_choose_victims_, [&] { return impl_->ChooseVictims(view); });
    if (chosen.size() == 1 && chosen[0] == api::kUseScores) {
      victims->push_back(Heuristic::Choose(rt));
      return;
    }
    for (api::StorageHandle s : chosen)
      if (s < 0 || static_cast<size_t>(s) >= rt.storages().size() || rt.storages()[s].pool_slot < 0)
        throw PluginError(whose_ + "Choose returned storage " + std::to_string(s) +
                          ", which is not in the evictable pool");
    // One decision: one evaluation and one access, as Choose's victim.
    if (!chosen.empty()) {
      rt.summary().heuristic_eval_count += 1;
      rt.summary().heuristic_access_count += 1;
    }
    victims->insert(victims->end(), chosen.begin(), chosen.end());
  }

 private:
  template <typename F>
  auto Guard(const char* what, const std::string& crash, F f) const -> decltype(f()) {
    RunningScope running(crash);
    try {
      return f();
    } catch (const PluginError&) {
      throw;
    } catch (const std::exception& e) {
      throw PluginError(whose_ + what + " threw: " + e.what());
    } catch (...) {
      throw PluginError(whose_ + what + " threw a non-standard exception");
    }
  }
  int abi_version_;  // the plugin's: a version-1 plugin's objects have no ChooseVictims
  std::string name_, label_;
  std::string whose_;  // "plugin PATH: heuristic NAME: "
  std::string crash_features_, crash_score_, crash_choose_, crash_choose_victims_, crash_destroy_;
  std::unique_ptr<api::Heuristic> impl_;
  PyRandom random_;
};

class LoaderRegistrar : public api::Registrar {
 public:
  LoaderRegistrar(std::string origin, int abi_version)
      : origin_(std::move(origin)), abi_version_(abi_version) {}
  void Add(const std::string& name, const std::string& label, ApiFactory make) override {
    RegisterApiHeuristic(name, label, origin_, std::move(make), abi_version_);
  }

 private:
  std::string origin_;
  int abi_version_;
};

// The fatal signals a plugin's bug raises, and what was installed before
// ours (the default, or a sanitizer's or libFuzzer's handler, which still
// runs after our message).
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction g_previous[std::size(kFatalSignals)];

const char* SignalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (segmentation fault) ";
    case SIGBUS:
      return "SIGBUS (bus error) ";
    case SIGILL:
      return "SIGILL (illegal instruction) ";
    case SIGFPE:
      return "SIGFPE (arithmetic exception) ";
    case SIGABRT:
      return "SIGABRT (abort) ";
    default:
      return "fatal signal ";
  }
}

// Async-signal-safe: reads a thread-local set before the call and write(2)s
// preformatted text, then hands the signal to the previous disposition
// (the process still dies of it: exit 128 + signal in a shell).
extern "C" void OnFatalSignal(int sig) {
  const Running running = t_running;
  if (running.message != nullptr) {
    const char* parts[] = {"dtrcheck: ", SignalName(sig)};
    for (const char* p : parts)
      if (write(STDERR_FILENO, p, std::char_traits<char>::length(p)) < 0) break;
    if (write(STDERR_FILENO, running.message, running.length) < 0) {
      // Nothing else can be reported from here.
    }
  }
  RunFatalSignalCleanup();
  for (size_t i = 0; i < std::size(kFatalSignals); ++i)
    if (kFatalSignals[i] == sig) sigaction(sig, &g_previous[i], nullptr);
  // Delivered when the handler returns (the signal is blocked in it); a
  // fault re-executes the faulting instruction and raises it again anyway.
  raise(sig);
}

// An alternate signal stack for the calling thread (sigaltstack is per
// thread), switched off and freed when the thread ends.
class AlternateStack {
 public:
  AlternateStack() : memory_(new char[kSize]) {
    stack_t st = {};
    st.ss_sp = memory_.get();
    st.ss_size = kSize;
    sigaltstack(&st, nullptr);
  }
  ~AlternateStack() {
    stack_t st = {};
    st.ss_flags = SS_DISABLE;
    sigaltstack(&st, nullptr);
  }
  AlternateStack(const AlternateStack&) = delete;
  AlternateStack& operator=(const AlternateStack&) = delete;

 private:
  static constexpr size_t kSize = 64 * 1024;
  std::unique_ptr<char[]> memory_;
};

// On an alternate stack, so that a plugin's runaway recursion is reported
// too: each thread that calls a plugin gets one.
void EnsureAlternateStack() { thread_local AlternateStack stack; }

}  // namespace

namespace {

void InstallCrashReport() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < std::size(kFatalSignals); ++i) {
      struct sigaction sa = {};
      sa.sa_handler = OnFatalSignal;
      sa.sa_flags = SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(kFatalSignals[i], &sa, &g_previous[i]);
    }
  });
}

// Is `address` (from dlsym) a function? A data object of an entry point's
// name (int dtrcheck_plugin_abi_version = 1;) would be called as code and
// crash: its ELF symbol type says what it is.
bool IsFunction(void* address) {
  Dl_info info;
  void* entry = nullptr;  // the symbol's const ElfW(Sym)*
  if (dladdr1(address, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) return false;
  const auto* sym = static_cast<const ElfW(Sym)*>(entry);
  const int type = ELF64_ST_TYPE(sym->st_info);
  return type == STT_FUNC || type == STT_GNU_IFUNC;
}

}  // namespace

namespace {

// The simulator's factory around an API heuristic's.
HeuristicFactory WrapApiFactory(const std::string& name, const std::string& label,
                                const std::string& origin, ApiFactory make, int abi_version) {
  if (!make) return nullptr;
  return [name, label, origin, abi_version, make = std::move(make)](Int seed) {
    const std::string whose = Whose(origin, name);
    std::unique_ptr<api::Heuristic> impl;
    {
      const std::string crash = CrashMessage(whose, "its factory");
      RunningScope running(crash);
      try {
        impl = make(seed);
      } catch (const std::exception& e) {
        throw PluginError(whose + "its factory threw: " + e.what());
      } catch (...) {
        throw PluginError(whose + "its factory threw a non-standard exception");
      }
    }
    if (!impl) throw PluginError(whose + "its factory returned no heuristic");
    return std::unique_ptr<Heuristic>(
        std::make_unique<ApiHeuristic>(name, label, origin, std::move(impl), seed, abi_version));
  };
}

// dtrcheck's own policies: registered as the simulator's own (no origin).
class OwnRegistrar : public api::Registrar {
 public:
  void Add(const std::string& name, const std::string& label, ApiFactory make) override {
    RegisterOwnHeuristic(name, label,
                         WrapApiFactory(name, label, "", std::move(make), api::kAbiVersion));
  }
};

}  // namespace

void RegisterApiHeuristic(const std::string& name, const std::string& label,
                          const std::string& origin, ApiFactory make, int abi_version) {
  HeuristicFactory wrapped = WrapApiFactory(name, label, origin, std::move(make), abi_version);
  try {
    RegisterHeuristic(name, label, std::move(wrapped), origin);
  } catch (const std::invalid_argument& e) {  // the registry's refusal, as a plugin's error
    throw PluginError(e.what());
  }
}

void LoadPlugin(const std::string& path) {
  static std::vector<std::string> loaded;
  std::error_code ec;
  std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
  if (ec || !std::filesystem::exists(path)) throw PluginError("plugin " + path + ": no such file");
  for (const auto& p : loaded)
    if (p == canonical) return;
  // Before dlopen: a library's constructors are plugin code too.
  InstallCrashReport();
  EnsureAlternateStack();
  const std::string crash_loading = "inside plugin " + path + ": loading it\n";
  void* lib = nullptr;
  {
    RunningScope running(crash_loading);
    // RTLD_LOCAL: two plugins may define the same internal symbols.
    lib = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  }
  if (!lib) throw PluginError("plugin " + path + ": cannot load: " + dlerror());
  using AbiFn = int (*)();
  using RegisterFn = void (*)(api::Registrar&);
  void* abi_address = dlsym(lib, DTRCHECK_PLUGIN_ABI_SYMBOL);
  void* reg_address = dlsym(lib, DTRCHECK_PLUGIN_REGISTER_SYMBOL);
  if (!abi_address || !reg_address)
    throw PluginError("plugin " + path + ": not a dtrcheck plugin (no " +
                      (abi_address ? DTRCHECK_PLUGIN_REGISTER_SYMBOL : DTRCHECK_PLUGIN_ABI_SYMBOL) +
                      " entry point; define it with DTRCHECK_PLUGIN from dtrcheck/heuristic.h)");
  for (auto [address, symbol] : {std::pair{abi_address, DTRCHECK_PLUGIN_ABI_SYMBOL},
                                 std::pair{reg_address, DTRCHECK_PLUGIN_REGISTER_SYMBOL}})
    if (!IsFunction(address))
      throw PluginError("plugin " + path + ": its entry point " + symbol +
                        " is not a function; define the entry points with DTRCHECK_PLUGIN "
                        "from dtrcheck/heuristic.h");
  auto abi = reinterpret_cast<AbiFn>(abi_address);
  auto reg = reinterpret_cast<RegisterFn>(reg_address);
  const std::string crash_abi =
      "inside plugin " + path + ": its entry point " + DTRCHECK_PLUGIN_ABI_SYMBOL + "\n";
  int version = 0;
  {
    RunningScope running(crash_abi);
    try {
      version = abi();
    } catch (...) {
      throw PluginError("plugin " + path + ": its entry point " + DTRCHECK_PLUGIN_ABI_SYMBOL +
                        " threw");
    }
  }
  if (version < api::kOldestAbiVersion || version > api::kAbiVersion)
    throw PluginError(
        "plugin " + path + ": built for plugin ABI version " + std::to_string(version) +
        ", this dtrcheck has version " + std::to_string(api::kAbiVersion) +
        " (and loads versions " + std::to_string(api::kOldestAbiVersion) + " to " +
        std::to_string(api::kAbiVersion) + "); rebuild it against this dtrcheck's headers");
  loaded.push_back(canonical);
  LoaderRegistrar registrar(path, version);
  const std::string crash_register =
      "inside plugin " + path + ": its entry point " + DTRCHECK_PLUGIN_REGISTER_SYMBOL + "\n";
  RunningScope running(crash_register);
  try {
    reg(registrar);
  } catch (const PluginError&) {
    throw;
  } catch (const std::exception& e) {
    throw PluginError("plugin " + path + ": its registration threw: " + e.what());
  } catch (...) {
    throw PluginError("plugin " + path + ": its registration threw a non-standard exception");
  }
}

void RegisterAddressPolicies() {
  static std::once_flag once;
  std::call_once(once, [] {
    OwnRegistrar registrar;
    policies::RegisterAddressPolicies(registrar);
  });
}

void LoadPlugins(const std::vector<std::string>& paths) {
  RegisterAddressPolicies();
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
