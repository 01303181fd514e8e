// Runtime invariants on generated traces, for every runtime and heuristic
// pair that simrd accepts, and for dtrcheck's own address-aware heuristics
// (policies/) under both allocator models (RapidCheck; case counts and seed
// from RC_PARAMS, set by properties/CMakeLists.txt).
#include <algorithm>

#include <gtest/gtest.h>  // before rapidcheck/gtest.h, which uses its macros
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "io/record.h"
#include "io/trace_writer.h"
#include "plugins/plugin_heuristic.h"
#include "properties/invariant_observer.h"
#include "properties/trace_gen.h"
#include "sim/accepted_pairs.h"
#include "sim/heuristic.h"
#include "sim/parse.h"
#include "sim/runtime.h"
#include "sim/simulate.h"

namespace dtrcheck {
namespace {

// Small traces: every case runs ~100 configurations.
TraceGenLimits SmallTraces() {
  TraceGenLimits limits;
  limits.max_layers = 4;
  limits.max_width = 2;
  return limits;
}

// simrd refuses a pair when the heuristic needs a feature the runtime lacks;
// Simulate then throws std::invalid_argument (as the oracle exits 2).
std::optional<RunRecord> SimulateIfAccepted(const Graph& g, const RunConfig& c,
                                            const Baseline& base,
                                            RuntimeObserver* observer = nullptr) {
  try {
    return Simulate(g, c, base, observer);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::vector<std::string> Heuristics() {
  std::vector<std::string> out;
  for (const auto& h : HeuristicNames())
    if (h != "Heuristic") out.push_back(h);
  return out;
}

// The invariants of one run with region updates checked against the walk
// as they happen (a difference throws); nullopt if the pair is refused.
// Then the same run again with regions walked, as simrd does: the record
// must be the same, byte for byte.
// What the runs of a case did: evictions, and out-of-memory ends where a
// heuristic not simrd's declined to choose a victim (InvariantObserver).
struct Tally {
  int64_t evictions = 0, declined = 0;
};

bool HoldsFor(const Graph& g, RunConfig c, const Baseline& base, Tally* tally = nullptr) {
  c.region_rebuilds = RegionRebuilds::kUpdateChecked;
  InvariantObserver observer(c.budget ? *c.budget : BudgetFromRatio(base.peak, *c.ratio),
                             IsPluginHeuristic(c.heuristic));
  auto rec = SimulateIfAccepted(g, c, base, &observer);
  if (!rec) return false;
  if (tally) {
    tally->evictions += observer.evictions();
    tally->declined += observer.declined();
  }
  const std::string what =
      c.runtime + "/" + c.heuristic + " under " + MemoryModelName(c.memory.model);
  RC_ASSERT(rec->status != Status::kError);
  if (!observer.violations().empty()) RC_FAIL(what + ": " + observer.violations()[0]);
  // The clock starts at 1 and advances by each compute, model or remat.
  RC_ASSERT(rec->clock == 1 + rec->model_compute + rec->remat_compute);
  RC_ASSERT(rec->evictions == observer.evictions());
  c.region_rebuilds = RegionRebuilds::kWalk;
  auto again = SimulateIfAccepted(g, c, base);
  RC_ASSERT(again.has_value());
  RC_ASSERT(RecordToJson(*rec).dump() == RecordToJson(*again).dump());
  return true;
}

// An unbounded budget: status ok, nothing rematerialized, the baseline's
// compute; false if the pair is refused.
bool NeverRematerializes(const Graph& g, RunConfig c, const Baseline& base) {
  c.budget = Int(1) << 62;  // above any generated trace's memory: never binding
  InvariantObserver observer(*c.budget);
  auto rec = SimulateIfAccepted(g, c, base, &observer);
  if (!rec) return false;
  RC_ASSERT(rec->status == Status::kOk);
  RC_ASSERT(rec->remat_compute == 0);
  RC_ASSERT(rec->model_compute == base.compute);
  RC_ASSERT(rec->clock == 1 + base.compute);
  RC_ASSERT(observer.violations().empty());
  return true;
}

RC_GTEST_PROP(Invariants, HoldForEveryAcceptedRuntimeAndHeuristic, ()) {
  TraceLog log = *GenTrace(SmallTraces());
  const double ratio = *rc::gen::inRange(5, 101) / 100.0;
  const bool limited = *rc::gen::arbitrary<bool>();
  Graph g = ParseTrace(TraceLogText(log), "generated");
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  int accepted = 0;
  for (const auto& runtime : RuntimeNames()) {
    for (const auto& heuristic : Heuristics()) {
      RunConfig c;
      c.runtime = runtime;
      c.heuristic = heuristic;
      c.ratio = ratio;
      if (limited) c.overhead_limit = 8.0;
      c.memory = MemoryOptionsFromEnv("DTRCHECK_PROPERTIES_MEMORY");
      accepted += HoldsFor(g, c, base);
    }
  }
  RC_ASSERT(accepted > 0);
}

RC_GTEST_PROP(Invariants, AnUnboundedBudgetNeverRematerializes, ()) {
  TraceLog log = *GenTrace(SmallTraces());
  Graph g = ParseTrace(TraceLogText(log), "generated");
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  for (const auto& runtime : RuntimeNames()) {
    for (const auto& heuristic : Heuristics()) {
      RunConfig c;
      c.runtime = runtime;
      c.heuristic = heuristic;
      c.memory = MemoryOptionsFromEnv("DTRCHECK_PROPERTIES_MEMORY");
      NeverRematerializes(g, c, base);
    }
  }
}

// dtrcheck's own heuristics (policies/: DTE, Coop, MegEngineDTR,
// MegEngineDTRSqrt), registered as the command line registers them. They
// read addresses, so bytes has no run of them: each accepted runtime and
// own heuristic runs under both allocator models, and must be accepted.
const std::vector<RuntimeHeuristic>& OwnPairsRegistered() {
  static const std::vector<RuntimeHeuristic> pairs = [] {
    RegisterAddressPolicies();
    return OwnPairs();
  }();
  return pairs;
}

const MemoryModel kAllocators[] = {MemoryModel::kCudaCaching, MemoryModel::kArena};

TEST(Invariants, OwnHeuristicsAreRegisteredAndReadAddresses) {
  std::vector<std::string> heuristics;
  for (const auto& p : OwnPairsRegistered())
    if (heuristics.empty() || heuristics.back() != p.heuristic) heuristics.push_back(p.heuristic);
  EXPECT_EQ(heuristics,
            (std::vector<std::string>{"DTE", "Coop", "MegEngineDTR", "MegEngineDTRSqrt"}));
  for (const auto& h : heuristics) EXPECT_TRUE(ReadsAddresses(h)) << h;
  // Besides addresses they need what DTR needs (regions, integer last
  // access: policies/*.cc RequiredFeatures), so they run on DTR's runtimes.
  std::vector<std::string> dtr;
  for (const auto& p : AcceptedPairs())
    if (p.heuristic == "DTR") dtr.push_back(p.runtime);
  std::sort(dtr.begin(), dtr.end());
  for (const auto& h : heuristics) {
    std::vector<std::string> runtimes;
    for (const auto& p : OwnPairsRegistered())
      if (p.heuristic == h) runtimes.push_back(p.runtime);
    std::sort(runtimes.begin(), runtimes.end());
    EXPECT_EQ(runtimes, dtr) << h;
  }
  EXPECT_EQ(OwnPairsRegistered().size(), 4 * dtr.size());
}

RC_GTEST_PROP(Invariants, HoldForOwnHeuristicsUnderBothAllocators, ()) {
  TraceLog log = *GenTrace(SmallTraces());
  const double ratio = *rc::gen::inRange(5, 101) / 100.0;
  const bool limited = *rc::gen::arbitrary<bool>();
  const Int seed = *rc::gen::inRange(0, 1000);  // MegEngineDTRSqrt's draws
  Graph g = ParseTrace(TraceLogText(log), "generated");
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  RC_ASSERT(!OwnPairsRegistered().empty());
  Tally tally;
  for (MemoryModel model : kAllocators) {
    for (const auto& pair : OwnPairsRegistered()) {
      RunConfig c;
      c.runtime = pair.runtime;
      c.heuristic = pair.heuristic;
      c.ratio = ratio;
      c.seed = seed;
      if (limited) c.overhead_limit = 8.0;
      c.memory.model = model;
      if (!HoldsFor(g, c, base, &tally))
        RC_FAIL(pair.runtime + "/" + pair.heuristic + " refused under " + MemoryModelName(model));
    }
  }
  // How often the policies evicted, and ran out of memory by declining
  // (RapidCheck prints the shares of cases).
  RC_CLASSIFY(tally.evictions > 0, "the policies evicted");
  RC_CLASSIFY(tally.declined > 0, "a policy declined with storages evictable");
}

RC_GTEST_PROP(Invariants, OwnHeuristicsNeverRematerializeUnbounded, ()) {
  TraceLog log = *GenTrace(SmallTraces());
  Graph g = ParseTrace(TraceLogText(log), "generated");
  Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
  for (MemoryModel model : kAllocators) {
    for (const auto& pair : OwnPairsRegistered()) {
      RunConfig c;
      c.runtime = pair.runtime;
      c.heuristic = pair.heuristic;
      c.memory.model = model;
      if (!NeverRematerializes(g, c, base))
        RC_FAIL(pair.runtime + "/" + pair.heuristic + " refused under " + MemoryModelName(model));
    }
  }
}

// A generated trace that fails an invariant must shrink to a valid trace:
// every shrink candidate keeps the binding discipline and parses.
RC_GTEST_PROP(Invariants, ShrinkCandidatesAreValidTraces, ()) {
  TraceGenLimits limits = SmallTraces();
  limits.max_layers = 2;
  TraceLog log = *GenTrace(limits);
  size_t n = 0;
  for (const TraceLog& candidate : rc::seq::take(200, ShrinkTrace(log))) {
    Graph g = ParseTrace(TraceLogText(candidate), "candidate");
    Baseline base = RunBaseline(g, "RuntimeV2EagerOptimized");
    RunConfig c;
    c.ratio = 0.5;
    RC_ASSERT(Simulate(g, c, base).status != Status::kError);
    ++n;
  }
  RC_ASSERT(n > 0);
}

}  // namespace
}  // namespace dtrcheck
