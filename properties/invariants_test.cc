// Runtime invariants on generated traces, for every runtime and heuristic
// pair that simrd accepts (RapidCheck; case counts and seed from RC_PARAMS,
// set by properties/CMakeLists.txt).
#include <gtest/gtest.h>  // before rapidcheck/gtest.h, which uses its macros
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "io/record.h"
#include "io/trace_writer.h"
#include "properties/invariant_observer.h"
#include "properties/trace_gen.h"
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
      // Region updates checked against the walk as they happen (a
      // difference throws), and the record compared with the walk's below.
      c.region_rebuilds = RegionRebuilds::kUpdateChecked;
      InvariantObserver observer(BudgetFromRatio(base.peak, ratio));
      auto rec = SimulateIfAccepted(g, c, base, &observer);
      if (!rec) continue;
      ++accepted;
      const std::string what = runtime + "/" + heuristic;
      RC_ASSERT(rec->status != Status::kError);
      if (!observer.violations().empty()) RC_FAIL(what + ": " + observer.violations()[0]);
      // The clock starts at 1 and advances by each compute, model or remat.
      RC_ASSERT(rec->clock == 1 + rec->model_compute + rec->remat_compute);
      RC_ASSERT(rec->evictions == observer.evictions());
      // Same inputs, same record, byte for byte, whether regions are
      // rebuilt by update or by walking as simrd does.
      c.region_rebuilds = RegionRebuilds::kWalk;
      auto again = SimulateIfAccepted(g, c, base);
      RC_ASSERT(again.has_value());
      RC_ASSERT(RecordToJson(*rec).dump() == RecordToJson(*again).dump());
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
      c.budget = Int(1) << 62;  // above any generated trace's memory: never binding
      c.memory = MemoryOptionsFromEnv("DTRCHECK_PROPERTIES_MEMORY");
      InvariantObserver observer(c.budget);
      auto rec = SimulateIfAccepted(g, c, base, &observer);
      if (!rec) continue;
      RC_ASSERT(rec->status == Status::kOk);
      RC_ASSERT(rec->remat_compute == 0);
      RC_ASSERT(rec->model_compute == base.compute);
      RC_ASSERT(rec->clock == 1 + base.compute);
      RC_ASSERT(observer.violations().empty());
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
