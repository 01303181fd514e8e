// dtrcheck's public extension API: write an eviction heuristic, build it as a
// shared library, load it with `dtrcheck --plugin PATH.so` (or link it into
// your own program with find_package(dtrcheck) and dtrcheck::sim).
//
// This header is the whole contract. It exposes no internals of the
// simulator (no runtime classes, no JSON or hashing libraries): a heuristic
// reads the simulation through the abstract View that dtrcheck implements,
// so a plugin needs nothing from dtrcheck at link time.
//
// What simrd does with a heuristic, and therefore what a plugin gets:
//  * Score(s, view) is called for each evictable storage when the runtime
//    must free memory. dtrcheck counts one heuristic evaluation and one
//    access per call, as every simrd heuristic does (summary fields
//    heuristic_eval_count / heuristic_access_count).
//  * The default Choose scans the evictable pool in order, keeps the LAST
//    storage whose cost is <= the best so far, and stops at the first cost
//    equal to 0 (simrd's Heuristic.choose). Override Choose to pick a victim
//    yourself; return kUseScores to fall back to that scan.
//  * RequiredFeatures() names the runtime features the score reads. A runtime
//    lacking one refuses the heuristic with simrd's RuntimeError message
//    (e.g. region computes need kRegions: RuntimeV2Optimized or
//    RuntimeV2EagerOptimized). Reading a value whose feature you did not
//    declare gives whatever the runtime keeps there (usually 0).
#ifndef DTRCHECK_PUBLIC_HEURISTIC_H_
#define DTRCHECK_PUBLIC_HEURISTIC_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>

namespace dtrcheck::api {

// Bumped whenever a class or struct below changes layout or a virtual
// function is added, removed or reordered. dtrcheck refuses a plugin built
// against another version.
constexpr int kAbiVersion = 1;

// simrd's integers are Python ints; sizes, computes and clocks fit here.
using Int = __int128;

// Runtime features (simrd's FEATURES names in the comments).
using Features = uint32_t;
namespace feature {
constexpr Features kTelemetry = 1u << 0;      // 'telemetry'
constexpr Features kBanishing = 1u << 1;      // 'banishing' (RuntimeV1)
constexpr Features kLastAccess = 1u << 2;     // 'last_access'
constexpr Features kLastAccessInt = 1u << 3;  // 'last_access_int': LastAccess below
constexpr Features kLastEvict = 1u << 4;      // 'last_evict'
constexpr Features kEagerEvict = 1u << 5;     // 'eager_evict'
constexpr Features kRegions = 1u << 6;        // 'regions': RegionCompute, RegionRevCompute
constexpr Features kEqClass = 1u << 7;        // 'eq_class': EqClassCompute
}  // namespace feature

// A cost compared as simrd's Python compares its scores: a float (true
// divisions, math.inf, -inf) or an exact int; int vs float is exact.
struct Cost {
  bool is_int = false;
  double f = 0;
  Int i = 0;
  static Cost Float(double v) { return Cost{false, v, 0}; }
  static Cost Integer(Int v) { return Cost{true, 0, v}; }
  static Cost Infinity() { return Float(std::numeric_limits<double>::infinity()); }
  bool IsZero() const { return is_int ? i == 0 : f == 0.0; }
};

// A timestamp that may be -inf (never accessed), as simrd's Storage keeps it.
struct Stamp {
  bool minus_inf = true;
  Int value = 0;
};

// A storage (simrd's Storage: the memory one or more aliasing tensors share).
using StorageHandle = int64_t;
constexpr StorageHandle kUseScores = -1;

// What a heuristic may read. Implemented by dtrcheck; valid only during the
// call it is passed to.
//
// Every call checks its arguments and throws on a bad one, naming the call:
// a handle that is no storage (std::out_of_range), an index past the pool's
// end (std::out_of_range), a division by zero (std::domain_error), an empty
// or too large range for RandBelow (std::invalid_argument). Let it
// propagate: dtrcheck stops the run with the message, the plugin's path and
// the heuristic's name (exit 2).
class View {
 public:
  virtual ~View() = default;
  // rt.clock: the simulated time.
  virtual Int Clock() const = 0;
  // Bytes in use and the budget (negative: unbounded).
  virtual Int MemoryUsage() const = 0;
  virtual Int Budget() const = 0;

  // The evictable pool in simrd's list order. Slot holes read as -1; skip them.
  // i < PoolSlotCount().
  virtual size_t PoolSlotCount() const = 0;
  virtual StorageHandle PoolSlot(size_t i) const = 0;
  // Live storages in the pool, and the i-th of them (storage_pool[i]);
  // i < PoolSize().
  virtual size_t PoolSize() const = 0;
  virtual StorageHandle PoolNth(size_t i) = 0;

  // storage.size and storage.compute (its tensors' distinct operators).
  virtual Int Size(StorageHandle s) const = 0;
  virtual Int Compute(StorageHandle s) const = 0;
  // The compute of its evicted neighbourhood, as simrd's optimized runtime
  // keeps it (kRegions): the region of evicted ancestors (s.region.compute)
  // and of evicted descendants (s.region_rev.compute). DTR's e* is
  // Compute + RegionCompute + RegionRevCompute.
  virtual Int RegionCompute(StorageHandle s) const = 0;
  virtual Int RegionRevCompute(StorageHandle s) const = 0;
  // s.compute plus the compute of each distinct equivalence class among its
  // evicted neighbours (DTREqClass's term, kEqClass). Counts one heuristic
  // access per neighbour edge visited, as simrd does.
  virtual Int EqClassCompute(StorageHandle s) = 0;
  // storage.last_access_int (kLastAccessInt).
  virtual Stamp LastAccess(StorageHandle s) const = 0;
  // Lock state: ref_int > 0 (a rematerialization or computation holds it);
  // pinned storages (constants, inputs) are never evictable.
  virtual bool Locked(StorageHandle s) const = 0;
  virtual bool Pinned(StorageHandle s) const = 0;
  virtual bool Material(StorageHandle s) const = 0;

  // Python's true division a / b and a / (b * c), correctly rounded as
  // CPython rounds int / int (the scores must match simrd bit for bit;
  // converting to double first does not). b (b * c) must not be 0: Python
  // raises ZeroDivisionError.
  virtual double TrueDivide(Int a, Int b) const = 0;
  virtual double TrueDivideByProduct(Int a, Int b, Int c) const = 0;
  // Random integer in [0, n) from this heuristic's Python-compatible
  // generator, seeded with the run's --seed (RandomStorage's draw).
  // 1 <= n < 2^64: n <= 0 is Python's "empty range for randrange()".
  virtual Int RandBelow(Int n) = 0;
};

class Heuristic {
 public:
  virtual ~Heuristic() = default;
  virtual Features RequiredFeatures() const = 0;
  // The cost of evicting s; lower is evicted first. May throw (anything,
  // here and in Choose, RequiredFeatures, the factory and the entry point):
  // dtrcheck reports the exception with the plugin's path and the
  // heuristic's name (exit 2). A crash (SIGSEGV...) inside any of them is
  // reported the same way before the process dies of the signal.
  virtual Cost Score(StorageHandle s, View& view) = 0;
  // The victim, or kUseScores for simrd's scan over Score. Must return a
  // storage currently in the pool.
  virtual StorageHandle Choose(View&) { return kUseScores; }
};

// Passed to the plugin's entry point.
class Registrar {
 public:
  virtual ~Registrar() = default;
  // name: what --heuristic takes (must not clash with a built-in or another
  // plugin's); label: the str() shown in refusal messages. make(seed) is
  // called once per run.
  virtual void Add(const std::string& name, const std::string& label,
                   std::function<std::unique_ptr<Heuristic>(Int seed)> make) = 0;
};

}  // namespace dtrcheck::api

// A plugin defines both, with C linkage, as functions (the loader refuses a
// data symbol of either name before calling anything):
//   int dtrcheck_plugin_abi_version() { return dtrcheck::api::kAbiVersion; }
//   void dtrcheck_plugin_register(dtrcheck::api::Registrar& r) { r.Add(...); }
// DTRCHECK_PLUGIN(registrar) { ... } writes both.
#define DTRCHECK_PLUGIN_ABI_SYMBOL "dtrcheck_plugin_abi_version"
#define DTRCHECK_PLUGIN_REGISTER_SYMBOL "dtrcheck_plugin_register"
#define DTRCHECK_PLUGIN(registrar)                                                      \
  extern "C" __attribute__((visibility("default"))) int dtrcheck_plugin_abi_version() { \
    return dtrcheck::api::kAbiVersion;                                                  \
  }                                                                                     \
  extern "C" __attribute__((visibility("default"))) void dtrcheck_plugin_register(      \
      dtrcheck::api::Registrar& registrar)

#endif  // DTRCHECK_PUBLIC_HEURISTIC_H_
