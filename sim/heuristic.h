// Eviction heuristics as pluggable scores (simrd/heuristic/*.py).
//
// A heuristic evaluates a cost for each evictable storage; the runtime evicts
// what Heuristic::Choose picks. Every heuristic registered in simrd is here,
// under simrd's class name: DTR, DTREqClass, DTRLocal, DTRUnopt, MSPS, LRU,
// LargestStorage, RandomStorage and the 16 ablations (AbESizeStale ...
// AbRandom), plus the base "Heuristic" that simrd uses for unbounded
// baseline runs (it never evaluates anything).
#ifndef DTRCHECK_SIM_HEURISTIC_H_
#define DTRCHECK_SIM_HEURISTIC_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dtrcheck/heuristic.h"
#include "sim/features.h"
#include "sim/python/py_arith.h"
#include "sim/tensor.h"

namespace dtrcheck {

class Runtime;

// A cost as simrd's Python computes it: a float (true divisions, math.inf,
// -inf timestamps) or an exact int (AbE, AbLocal, AbEq, LRU return ints).
// Comparisons between the two are exact, as in Python.
// A score: the public API's Cost (include/dtrcheck/heuristic.h), so that a
// plugin's score is the built-in heuristics' score, compared the same way.
using Cost = api::Cost;
// The cost as a float, for telemetry (Python's float(int), correctly rounded).
double CostToDouble(const Cost& c);
namespace api {
// Python's a <= b on two scores (exact between an int and a float), as
// Heuristic.choose compares them. In api:: so that lookup finds it by the
// argument type.
bool operator<=(const Cost& a, const Cost& b);
}  // namespace api

class Heuristic {
 public:
  virtual ~Heuristic() = default;
  virtual std::string Name() const = 0;   // the class name, as registered ("DTR")
  virtual std::string Label() const = 0;  // str(heuristic) in simrd ("$h_{DTR}$")
  virtual Features RequiredFeatures() const = 0;
  // The cost of evicting `s`. Counts heuristic evaluations and accesses.
  virtual Cost Evaluate(StorageId s, Runtime& rt) = 0;
  // Heuristic.choose: scans the pool in order, keeps the last storage whose
  // cost is <= the best so far, stops at the first cost equal to 0.
  virtual StorageId Choose(Runtime& rt);
  // The victims of one decision, evicted in order (a window: several
  // contiguous blocks). The default is Choose's one victim. Empty: nothing
  // to evict, the runtime runs out of memory.
  virtual void ChooseVictims(Runtime& rt, StorageList* victims) { victims->push_back(Choose(rt)); }
};

// DTREqClass's compute term: s.compute plus the compute of each distinct
// equivalence class among its evicted neighbours (simrd's set(...) of
// CheckpointInfo objects). Counts one access per neighbour edge. The scratch
// lists are reused from call to call.
struct EqClassScratch {
  StorageList neighbors;
  std::vector<EqNodeId> roots;
};
Int EqClassTerm(StorageId s, Runtime& rt, EqClassScratch* scratch);

// All registered names, in simrd's registration order.
const std::vector<std::string>& HeuristicNames();

// The equivalence-class heuristics, whose heuristic_access_count simrd does
// not reproduce from run to run (QUIRKS.md, Q-EQCLASS).
bool IsEqClassHeuristic(const std::string& name);
// RandomStorage and AbRandom: they draw from Python's random module.
bool IsRandomHeuristic(const std::string& name);

// The open registry of heuristics, as simrd keeps one (register_heuristic):
// simrd's 24 and its base "Heuristic" are registered first, in simrd's
// order; others register after them (plugins/plugin_heuristic.h registers
// each plugin's, the Python package its policies).
using HeuristicFactory = std::function<std::unique_ptr<Heuristic>(Int seed)>;

// Registers `make` under `name`; `origin` (a plugin's path) names who did,
// for messages. Throws std::invalid_argument, the message starting with
// origin, if the name is simrd's, already taken or empty, or `make` is
// empty. Not thread-safe: register before running anything.
void RegisterHeuristic(const std::string& name, const std::string& label, HeuristicFactory make,
                       const std::string& origin = "");

// nullptr if the name is unknown. "Heuristic" gives simrd's base class.
std::unique_ptr<Heuristic> MakeHeuristic(const std::string& name, Int seed = 0);

// dtrcheck's own heuristics that are not simrd's (policies/: MegEngine's
// and OneFlow's, registered by the plugin loader): like a plugin's, simrd
// has no oracle for them (IsPluginHeuristic is true: a finding is confirmed
// by replay), but they are not listed among the plugins' names and have no
// origin (PluginOrigin ""). Throws std::invalid_argument on a taken name.
void RegisterOwnHeuristic(const std::string& name, const std::string& label, HeuristicFactory make);
const std::vector<std::string>& OwnHeuristicNames();

// The plugins' names (registered by RegisterHeuristic), in registration order.
const std::vector<std::string>& PluginHeuristicNames();
// Not one of simrd's (a plugin's or dtrcheck's own): simrd has no oracle.
bool IsPluginHeuristic(const std::string& name);
// Who registered `name` ("" if simrd's, dtrcheck's own or unknown).
std::string PluginOrigin(const std::string& name);
// simrd's names, then dtrcheck's own, then the plugins'.
std::vector<std::string> AllHeuristicNames();

}  // namespace dtrcheck

#endif  // DTRCHECK_SIM_HEURISTIC_H_
