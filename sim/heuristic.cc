#include "sim/heuristic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "sim/python/py_random.h"
#include "sim/runtime.h"
#include "sim/score_family.h"

namespace dtrcheck {

double CostToDouble(const Cost& c) { return c.is_int ? IntToDouble(c.i) : c.f; }

namespace api {
bool operator<=(const Cost& a, const Cost& b) {
  if (a.is_int && b.is_int) return a.i <= b.i;
  if (!a.is_int && !b.is_int) return a.f <= b.f;
  if (a.is_int) return !std::isnan(b.f) && CompareIntDouble(a.i, b.f) <= 0;
  return !std::isnan(a.f) && CompareIntDouble(b.i, a.f) >= 0;
}
}  // namespace api

std::string FeaturesToString(Features f) {
  static const char* names[] = {"telemetry",       "banishing",  "last_access",
                                "last_access_int", "last_evict", "eager_evict",
                                "regions",         "eq_class",   "addresses"};
  std::vector<std::string> v;
  for (int i = 0; i < 9; ++i)
    if (f & (1u << i)) v.push_back(names[i]);
  std::sort(v.begin(), v.end());
  if (v.empty()) return "set()";
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", '" : "'") + v[i] + "'";
  return out + "}";
}

Int EqClassTerm(StorageId sid, Runtime& rt, EqClassScratch* scratch) {
  Int compute = rt.storages()[sid].compute;
  rt.EvictedNeighbors(sid, &scratch->neighbors);
  scratch->roots.clear();
  for (StorageId n : scratch->neighbors) {
    EqNodeId r = rt.eq_forest().FindRoot(rt.storages()[n].ecn);
    bool seen = false;
    for (EqNodeId x : scratch->roots) seen = seen || x == r;
    if (!seen) {  // set(...) of CheckpointInfo objects: one per class
      scratch->roots.push_back(r);
      compute += rt.eq_forest().RootValue(r);
    }
  }
  return compute;
}

StorageId Heuristic::Choose(Runtime& rt) {
  Cost best = Cost::Infinity();
  StorageId best_storage = -1;
  // Evaluate does not touch the pool, so scanning its slots in place is safe.
  for (StorageId s : rt.pool().slots()) {
    if (s < 0) continue;
    Cost cost = Evaluate(s, rt);
    if (RuntimeObserver* o = rt.observer())
      o->OnEvaluate(rt.digest().count(), rt.storages()[s].root_id, CostToDouble(cost));
    if (cost <= best) {
      best = cost;
      best_storage = s;
    }
    if (cost.IsZero()) break;
  }
  if (best_storage < 0) throw SimrdAssertion("Heuristic.choose returned [None]");
  return best_storage;
}

namespace {

using namespace feature;

constexpr double kInf = std::numeric_limits<double>::infinity();

// simrd's Heuristic.staleness(T, clock) = clock - T, with T possibly -inf.
struct Staleness {
  bool inf;
  Int value;
};
Staleness StalenessOf(const Stamp& last, Int clock) {
  return last.minus_inf ? Staleness{true, 0} : Staleness{false, clock - last.value};
}

// Python: `num / denom if denom > 0 else math.inf` where denom is
// factor * staleness (either may be absent, i.e. 1).
Cost Quotient(Int num, Int factor, const Staleness* stale) {
  if (stale != nullptr && stale->inf) {
    // factor * inf is inf (factor > 0) or nan (factor == 0, not > 0).
    if (factor > 0) return Cost::Float(IntToDouble(num) / kInf);
    return Cost::Infinity();
  }
  Int s = stale ? stale->value : 1;
  bool positive = (factor > 0 && s > 0) || (factor < 0 && s < 0);
  if (!positive) return Cost::Infinity();
  return Cost::Float(stale ? TrueDivideByProduct(num, factor, s) : TrueDivide(num, factor));
}

// The compute term of a score.
enum class Term {
  kOne,          // no cost term (1)
  kLocal,        // s.compute
  kRegions,      // s.compute + region.compute + region_rev.compute  (e*)
  kRegionRev,    // s.compute + region_rev.compute                  (MSPS)
  kEqClass,      // s.compute + the distinct equivalence classes around s
  kUnoptimized,  // s.compute + the evicted neighbourhood, rebuilt  (DTRUnopt)
};

// One score family covers DTR and all its variants:
//   score = term / (size? * staleness?), or the bare int term when neither.
class ScoreHeuristic : public Heuristic {
 public:
  ScoreHeuristic(std::string name, std::string label, Term term, bool size, bool stale)
      : name_(std::move(name)), label_(std::move(label)), term_(term), size_(size), stale_(stale) {}

  std::string Name() const override { return name_; }
  std::string Label() const override { return label_; }

  Features RequiredFeatures() const override {
    Features f = stale_ ? kLastAccessInt : 0;
    if (term_ == Term::kRegions || term_ == Term::kRegionRev) f |= kRegions;
    if (term_ == Term::kEqClass) f |= kEqClass;
    return f;
  }

  Cost Evaluate(StorageId sid, Runtime& rt) override {
    Summary& sum = rt.summary();
    sum.heuristic_eval_count += 1;
    sum.heuristic_access_count += 1;
    const Storage& s = rt.storages()[sid];
    Int compute = 1;
    Stamp last = s.last_access_int;
    switch (term_) {
      case Term::kOne:
        break;
      case Term::kLocal:
        compute = s.compute;
        break;
      case Term::kRegions:
        compute = s.compute + rt.RegionOf(sid).compute + rt.RegionRevOf(sid).compute;
        break;
      case Term::kRegionRev:
        compute = s.compute + rt.RegionRevOf(sid).compute;
        break;
      case Term::kEqClass: {
        compute = EqClassTerm(sid, rt, &eq_scratch_);
        break;
      }
      case Term::kUnoptimized: {
        compute = s.compute;
        rt.EvictedNeighborhood(sid, &neighbors_);
        for (StorageId u : neighbors_) {
          const Storage& us = rt.storages()[u];
          compute += us.compute;
          const Stamp& ul = us.last_access_int;
          if (!ul.minus_inf && (last.minus_inf || ul.value > last.value)) last = ul;
        }
        break;
      }
    }
    if (!size_ && !stale_) return Cost::Integer(compute);
    Staleness st = StalenessOf(last, rt.clock());
    return Quotient(compute, size_ ? s.size : Int(1), stale_ ? &st : nullptr);
  }

 private:
  std::string name_, label_;
  Term term_;
  bool size_, stale_;
  StorageList neighbors_;
  EqClassScratch eq_scratch_;
};

// LRU: the last internal access time itself.
class LruHeuristic : public Heuristic {
 public:
  std::string Name() const override { return "LRU"; }
  std::string Label() const override { return R"($h_{LRU}$)"; }
  Features RequiredFeatures() const override { return kLastAccessInt; }
  Cost Evaluate(StorageId sid, Runtime& rt) override {
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    const Stamp& t = rt.storages()[sid].last_access_int;
    return t.minus_inf ? Cost::Float(-kInf) : Cost::Integer(t.value);
  }
};

// RandomStorage: storage_pool[random.randrange(0, len(storage_pool))].
class RandomHeuristic : public Heuristic {
 public:
  RandomHeuristic(std::string name, std::string label, Int seed)
      : name_(std::move(name)), label_(std::move(label)), random_(seed) {}
  std::string Name() const override { return name_; }
  std::string Label() const override { return label_; }
  Features RequiredFeatures() const override { return 0; }
  Cost Evaluate(StorageId, Runtime&) override {
    throw SimrdAssertion("NotImplementedError: RandomStorage.evaluate");
  }
  StorageId Choose(Runtime& rt) override {
    rt.summary().heuristic_eval_count += 1;
    rt.summary().heuristic_access_count += 1;
    return rt.PoolNth(random_.RandBelow(rt.pool().size()));
  }

 private:
  std::string name_, label_;
  PyRandom random_;
};

// simrd's base Heuristic, used for unbounded baseline runs.
class BaseHeuristic : public Heuristic {
 public:
  std::string Name() const override { return "Heuristic"; }
  std::string Label() const override { return "N/A (Placeholder)"; }
  Features RequiredFeatures() const override { return 0; }
  Cost Evaluate(StorageId, Runtime&) override {
    throw SimrdAssertion("NotImplementedError: Heuristic.evaluate");
  }
};

struct Entry {
  const char* name;   // the class name
  const char* label;  // its __str__
  Term term;
  bool size, stale;
  enum { kScore, kLru, kRandom } kind;
};

// In simrd's registration order (dtr.py, etc.py, ablation.py), with the
// label each class's __str__ returns there.
const Entry kHeuristics[] = {
    {"DTR", R"($h_{DTR}$)", Term::kRegions, true, true, Entry::kScore},
    {"DTREqClass", R"($h_{DTR}^{eq}$)", Term::kEqClass, true, true, Entry::kScore},
    {"DTRLocal", R"($h_{DTR}^{local}$)", Term::kLocal, true, true, Entry::kScore},
    {"DTRUnopt", R"(DTR-Full (Unoptimized))", Term::kUnoptimized, true, true, Entry::kScore},
    {"MSPS", R"($h_{MSPS}$)", Term::kRegionRev, true, false, Entry::kScore},
    {"LRU", R"($h_{LRU}$)", Term::kOne, false, false, Entry::kLru},
    {"LargestStorage", R"($h_{size}$)", Term::kOne, true, false, Entry::kScore},
    {"RandomStorage", R"($h_{rand}$)", Term::kOne, false, false, Entry::kRandom},
    {"AbESizeStale", R"($e^*$, size, staleness)", Term::kRegions, true, true, Entry::kScore},
    {"AbESize", R"($e^*$, size, no staleness)", Term::kRegions, true, false, Entry::kScore},
    {"AbEStale", R"($e^*$, no size, staleness)", Term::kRegions, false, true, Entry::kScore},
    {"AbE", R"($e^*$, no size, no staleness)", Term::kRegions, false, false, Entry::kScore},
    {"AbEqSizeStale", R"(EqClass, size, staleness)", Term::kEqClass, true, true, Entry::kScore},
    {"AbEqSize", R"(EqClass, size, no staleness)", Term::kEqClass, true, false, Entry::kScore},
    {"AbEqStale", R"(EqClass, no size, staleness)", Term::kEqClass, false, true, Entry::kScore},
    {"AbEq", R"(EqClass, no size, no staleness)", Term::kEqClass, false, false, Entry::kScore},
    {"AbLocalSizeStale", R"(local, size, staleness)", Term::kLocal, true, true, Entry::kScore},
    {"AbLocalSize", R"(local, size, no staleness)", Term::kLocal, true, false, Entry::kScore},
    {"AbLocalStale", R"(local, no size, staleness)", Term::kLocal, false, true, Entry::kScore},
    {"AbLocal", R"(local, no size, no staleness)", Term::kLocal, false, false, Entry::kScore},
    {"AbSizeStale", R"(no cost, size, staleness)", Term::kOne, true, true, Entry::kScore},
    {"AbSize", R"(no cost, size, no staleness)", Term::kOne, true, false, Entry::kScore},
    {"AbStale", R"(no cost, no size, staleness)", Term::kOne, false, true, Entry::kScore},
    {"AbRandom", R"(no cost, no size, no staleness (random))", Term::kOne, false, false,
     Entry::kRandom},
};

std::unique_ptr<Heuristic> MakeBuiltin(const Entry& e, Int seed) {
  switch (e.kind) {
    case Entry::kScore:
      return std::make_unique<ScoreHeuristic>(e.name, e.label, e.term, e.size, e.stale);
    case Entry::kLru:
      return std::make_unique<LruHeuristic>();
    case Entry::kRandom:
      return std::make_unique<RandomHeuristic>(e.name, e.label, seed);
  }
  return nullptr;
}

struct Registered {
  std::string label, origin;
  HeuristicFactory make;
  bool simrd;        // one of simrd's, registered first
  bool own = false;  // dtrcheck's own (RegisterOwnHeuristic)
};

struct Registry {
  std::map<std::string, Registered> by_name;
  std::vector<std::string> simrd_names;  // in simrd's order, without "Heuristic"
  std::vector<std::string> other_names;  // plugins', in registration order
  std::vector<std::string> own_names;    // dtrcheck's own, in registration order
};

// simrd's heuristics register on first use (no static initializers, which
// a static library may drop).
Registry& TheRegistry() {
  static Registry r = [] {
    Registry r;
    auto base = [](Int) { return std::make_unique<BaseHeuristic>(); };
    r.by_name["Heuristic"] = Registered{"N/A (Placeholder)", "", base, true};
    for (const Entry& e : kHeuristics) {
      auto make = [&e](Int seed) { return MakeBuiltin(e, seed); };
      r.by_name[e.name] = Registered{e.label, "", make, true};
      r.simrd_names.push_back(e.name);
    }
    return r;
  }();
  return r;
}

}  // namespace

const std::vector<std::string>& HeuristicNames() { return TheRegistry().simrd_names; }

void RegisterHeuristic(const std::string& name, const std::string& label, HeuristicFactory make,
                       const std::string& origin) {
  Registry& r = TheRegistry();
  auto it = r.by_name.find(name);
  if (it != r.by_name.end() && it->second.simrd)
    throw std::invalid_argument(origin + ": heuristic name \"" + name +
                                "\" clashes with a built-in (simrd) heuristic");
  if (it != r.by_name.end())
    throw std::invalid_argument(origin + ": heuristic name \"" + name +
                                "\" is already registered by " + it->second.origin);
  if (name.empty()) throw std::invalid_argument(origin + ": a heuristic with an empty name");
  if (!make)
    throw std::invalid_argument(origin + ": heuristic " + name + " registered without a factory");
  r.by_name[name] = Registered{label, origin, std::move(make), false};
  r.other_names.push_back(name);
}

void RegisterOwnHeuristic(const std::string& name, const std::string& label,
                          HeuristicFactory make) {
  Registry& r = TheRegistry();
  if (r.by_name.count(name))
    throw std::invalid_argument("dtrcheck: heuristic name \"" + name + "\" registered twice");
  if (name.empty() || !make) throw std::invalid_argument("dtrcheck: a heuristic without a name");
  r.by_name[name] = Registered{label, "", std::move(make), false, true};
  r.own_names.push_back(name);
}

const std::vector<std::string>& OwnHeuristicNames() { return TheRegistry().own_names; }

const std::vector<std::string>& PluginHeuristicNames() { return TheRegistry().other_names; }

bool IsPluginHeuristic(const std::string& name) {
  auto it = TheRegistry().by_name.find(name);
  return it != TheRegistry().by_name.end() && !it->second.simrd;
}

std::string PluginOrigin(const std::string& name) {
  auto it = TheRegistry().by_name.find(name);
  return it == TheRegistry().by_name.end() ? "" : it->second.origin;
}

std::vector<std::string> AllHeuristicNames() {
  std::vector<std::string> v = HeuristicNames();
  v.insert(v.end(), OwnHeuristicNames().begin(), OwnHeuristicNames().end());
  v.insert(v.end(), PluginHeuristicNames().begin(), PluginHeuristicNames().end());
  return v;
}

bool IsEqClassHeuristic(const std::string& name) {
  for (const auto& e : kHeuristics)
    if (name == e.name) return e.term == Term::kEqClass;
  return false;
}

bool IsRandomHeuristic(const std::string& name) {
  for (const auto& e : kHeuristics)
    if (name == e.name) return e.kind == Entry::kRandom;
  return false;
}

std::string ScoreFamily(const std::string& name) {
  for (const auto& e : kHeuristics) {
    if (name != e.name) continue;
    if (e.kind == Entry::kLru) return "lru";
    if (e.kind == Entry::kRandom) return "random";
    if (e.term == Term::kRegionRev) return "msps";  // its own cost term, not e*
    bool cost = e.term != Term::kOne;
    if (cost && e.size && e.stale) return "dtr";
    std::string f;
    for (auto [on, part] : {std::pair{cost, "cost"}, {e.size, "size"}, {e.stale, "stale"}})
      if (on) {
        if (!f.empty()) f += '+';
        f += part;
      }
    return f;
  }
  // dtrcheck's own ports (policies/) are no plugin's: named apart, so a
  // bucket says which code the finding is in.
  if (std::find(OwnHeuristicNames().begin(), OwnHeuristicNames().end(), name) !=
      OwnHeuristicNames().end())
    return "own:" + name;
  return IsPluginHeuristic(name) ? "plugin:" + name : "";
}

std::unique_ptr<Heuristic> MakeHeuristic(const std::string& name, Int seed) {
  auto it = TheRegistry().by_name.find(name);
  return it == TheRegistry().by_name.end() ? nullptr : it->second.make(seed);
}

}  // namespace dtrcheck
